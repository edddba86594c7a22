/**
 * Seedable random numbers (mulberry32), so that ids, keys and the error rate repeat from run to run when a
 * test pins the seed.
 */

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

export interface Random {
  next(): number;
  id(prefix: string, length?: number): string;
}

export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const id = (prefix: string, length = 16): string => {
    let out = prefix;
    for (let i = 0; i < length; i++) out += ALPHABET[Math.floor(next() * ALPHABET.length)];
    return out;
  };
  return { next, id };
}

/** An `x-request-id` value. */
export function requestId(random: Random): string {
  return random.id('req_', 20);
}

/** A fresh seed for a mock that was given none. */
export function randomSeed(): number {
  return Math.floor(Math.random() * 4294967296);
}
