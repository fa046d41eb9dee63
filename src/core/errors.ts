/** Stable codes for errors a user can hit. Each message says what to do. */
export type ToolgateErrorCode =
  | "CONFIG_INVALID"
  | "CONFIG_NOT_FOUND"
  | "RULE_SYNTAX"
  | "INPUT_INVALID"
  | "STORE_UNAVAILABLE"
  | "STORE_CORRUPT"
  | "STORE_VERSION";

const marker = Symbol.for("toolgate.error");

export class ToolgateError extends Error {
  readonly code: ToolgateErrorCode;
  readonly data: Record<string, unknown> | undefined;
  readonly [marker] = true;

  constructor(options: { code: ToolgateErrorCode; message: string; data?: Record<string, unknown>; cause?: unknown }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ToolgateError";
    this.code = options.code;
    this.data = options.data;
  }

  /** true for a ToolgateError from any copy of the package */
  static is(value: unknown): value is ToolgateError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}
