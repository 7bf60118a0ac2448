import { MemoryStore } from '../../src/state/index.js';
import { storeContract } from './store.contract.js';

storeContract('memory', { make: () => new MemoryStore() });
