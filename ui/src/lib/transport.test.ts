import { describe, expect, it } from 'vitest';

import { keyTravelsInClear } from './transport';

describe('keyTravelsInClear', () => {
  it.each([
    ['https://api.anthropic.com', false],
    ['http://127.0.0.1:8080/v1', false],
    ['http://127.9.9.9', false],
    ['http://[::1]:11434', false],
    ['http://localhost:11434', false],
    ['http://LOCALHOST.:1234', false],
    ['http://ollama.localhost', false],
    ['http://192.168.1.20:11434', true],
    ['http://example.com/v1', true],
    ['http://localhost.example.com', true],
    ['not a url', false],
  ])('%s → %s', (url, clear) => {
    expect(keyTravelsInClear(url)).toBe(clear);
  });
});
