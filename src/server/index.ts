export { createApp, type AppDeps } from './app.js';
export { OpenRequests, shuttingDown, type DrainReport } from './open-requests.js';
export { Credentials, type CredentialSettings } from './credentials.js';
