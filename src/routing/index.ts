export { Router, type Plan } from './plan.js';
