export { createApp, type AppDeps } from './app.js';
