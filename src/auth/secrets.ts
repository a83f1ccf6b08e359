// Secrets: passwords hashed with scrypt (salted, slow on purpose), random tokens and secrets hashed with SHA-256.
import { hash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  length: number,
  options: { N: number; r: number; p: number },
) => Promise<Buffer>;
const SCRYPT = { N: 16384, r: 8, p: 1 };
const KEY_LENGTH = 32;

/** `scrypt$N$r$p$salt$key`, all that is needed to verify later even if the parameters change. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, KEY_LENGTH, SCRYPT);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** 256 random bits: access tokens and client secrets, far beyond the 128 SPEC §7 asks. */
export function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Tokens and client secrets are high-entropy random strings, so a plain SHA-256 is a safe
 * stored form (nothing to brute-force), and cheap enough to check on every request.
 */
export function secretHash(secret: string): string {
  return hash('sha256', secret, 'base64url');
}

/** Compares a presented secret with a stored hash in constant time. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const actual = Buffer.from(secretHash(secret));
  const expected = Buffer.from(storedHash);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Whether `password` is the one `stored` (hashPassword's form) was made from; false for a form it does not know. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || salt === undefined || key === undefined) return false;
  const expected = Buffer.from(key, 'base64url');
  const options = { N: Number(n), r: Number(r), p: Number(p) };
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64url'), expected.length, options);
  return timingSafeEqual(actual, expected);
}
