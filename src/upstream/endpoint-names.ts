// OpenRouter names a provider two ways. Its display name ("Google AI Studio") is what an
// answer's `provider` field carries, so Warden's route ids, labels and admin views use it. Its
// slug ("google-ai-studio", the part of an endpoint's tag before the "/") is what provider
// routing's `order`, `only` and `ignore` are documented to take: a display name with a space
// in it is not a slug, and a list entry OpenRouter does not recognise is silently dropped, so
// a pin or an ignore sent by display name could do nothing at all.

/** The provider part of an endpoint tag ("deepinfra/fp8" → "deepinfra"); null without a tag. */
export function providerSlug(tag: string | null): string | null {
  if (!tag) return null;
  const slash = tag.indexOf('/');
  const slug = slash === -1 ? tag : tag.slice(0, slash);
  return slug || null;
}

/** What provider routing is sent for an endpoint: its slug, or, when nothing says the slug, its name. */
export function routingSlug(endpoint: { name: string; tag: string | null }): string {
  return providerSlug(endpoint.tag) ?? endpoint.name;
}

/**
 * Whether `entry`, an item of a client's order / only / ignore list already trimmed and
 * lowercased, names the provider of an endpoint: by display name, by display name written as
 * a slug ("google ai studio" → "google-ai-studio"), or by slug.
 */
export function entryNamesProvider(entry: string, name: string, slug: string): boolean {
  const lower = name.toLowerCase();
  return entry === lower || entry === slug.toLowerCase() || entry === lower.replace(/\s+/g, '-');
}
