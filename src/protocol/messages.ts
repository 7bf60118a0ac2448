// Reading chat messages: the text of a message whether its content is a string or parts.
import type { ChatMessage } from './types.js';

export function messageText(message: ChatMessage | undefined): string {
  const content = message?.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content) if (typeof part.text === 'string') text += (text ? '\n' : '') + part.text;
  return text;
}

/** The text of the last user message, or '' when there is none. */
export function lastUserText(messages: readonly ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.role === 'user') return messageText(messages[i]);
  return '';
}
