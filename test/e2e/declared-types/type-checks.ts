// Type-level assertions for the declared-types checks: each one compiles only when it holds.

type IsAny<T> = 0 extends 1 & T ? true : false;

/** `true` when Real is `any` and Declared is `unknown`: where a package says `any`, toolgate checks what it reads. */
export type UnknownForAny<Real, Declared> =
  IsAny<Real> extends true ? (IsAny<Declared> extends true ? false : unknown extends Declared ? true : false) : false;

/** Compiles only when Check is `true`. */
export type Assert<Check extends true> = Check;

/** `true` when From is assignable to To and neither is `any` (which would make any check pass). */
export type Within<From, To> =
  IsAny<From> extends true ? false : IsAny<To> extends true ? false : [From] extends [To] ? true : false;

/** `true` when A and B are assignable to each other: the same type as far as the compiler can tell. */
export type Exactly<A, B> = Within<A, B> extends true ? Within<B, A> : false;

/** Every key of every variant of T. */
type KeysOf<T> = T extends unknown ? keyof T : never;

/** Each variant of Real, narrowed to the members Declared names. */
type Members<Real, Declared> = Real extends unknown ? Pick<Real, Extract<keyof Real, KeysOf<Declared>>> : never;

/** `true` when the members Declared names have exactly the real types (Real's other members are not looked at). */
export type SameMembers<Real, Declared> = Exactly<Members<Real, Declared>, Declared>;
