/** One line of `toolgate doctor`: what was checked, how it went, and for anything not ok the fix. */
export interface DoctorCheck {
  /** stable: `node`, `config`, `<host> hooks (user)`, `store`, ... */
  name: string;
  status: "ok" | "warn" | "fail";
  /** what was found; may span lines (an invalid config lists every bad key) */
  message: string;
  /** a command or a sentence; null when the status is ok */
  fix: string | null;
}

/** Where doctor looks: the project directory, the environment and the home directory. */
export interface DoctorContext {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  home: string;
}

export const ok = (name: string, message: string): DoctorCheck => ({ name, status: "ok", message, fix: null });
/** A check that found something to look at; `fix` says what to do about it. */
export const warn = (name: string, message: string, options: { fix: string }): DoctorCheck => ({
  name,
  status: "warn",
  message,
  fix: options.fix,
});
/** A check that failed; `fix` says how to make it pass. */
export const fail = (name: string, message: string, options: { fix: string }): DoctorCheck => ({
  name,
  status: "fail",
  message,
  fix: options.fix,
});
