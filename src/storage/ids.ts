// Item ids and timestamps: opaque, unguessable ids (128 random bits, base64url) and RFC 3339 UTC times.
import { randomBytes } from 'node:crypto';

/** 22 characters of A–Z a–z 0–9 _ -: never a dot, never a reserved word such as count or search. */
export function newId(): string {
  return randomBytes(16).toString('base64url');
}

export function now(): string {
  return new Date().toISOString();
}

/** What an id can look like; anything else cannot exist, so it is a 404 without a query. */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;
