import { createMemoryStore } from "../../src/store/memory-store.js";
import { runStoreContract } from "./contract.js";

runStoreContract({ name: "memory", create: async () => createMemoryStore() });
