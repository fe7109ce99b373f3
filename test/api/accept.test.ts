import { describe, expect, it } from 'vitest';
import { acceptsMarkdown } from '../../src/api/accept.js';

describe('acceptsMarkdown', () => {
  it.each(['text/markdown', 'TEXT/Markdown', 'text/markdown; charset=utf-8', 'application/json, text/markdown', 'text/markdown;q=0.5, application/json;q=0.5', 'application/json;q=0.2, text/markdown;q=0.9', 'text/markdown, */*;q=0.1'])(
    'answers markdown for Accept: %s',
    (accept) => expect(acceptsMarkdown(accept)).toBe(true),
  );
  it.each([undefined, '', '*/*', 'text/*', 'application/json', 'text/markdown;q=0', 'text/markdown;q=0, application/json', 'application/json, text/markdown;q=0.1', 'text/markdown;q=0.1, */*', 'text/markdown;q=abc', 'text/markdown;q=2'])(
    'keeps JSON for Accept: %s',
    (accept) => expect(acceptsMarkdown(accept)).toBe(false),
  );
});
