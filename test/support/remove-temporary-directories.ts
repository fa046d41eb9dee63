import { afterAll } from "vitest";
import { removeTemporaryDirectories } from "./temporary-directory.js";

// a vitest setup file: runs in every test file's context, so each file's temporary directories go when it ends
afterAll(removeTemporaryDirectories);
