/**
 * The consent page lets its form lead on to a native app's own scheme (RFC 8252 §7.1), named in
 * its Content-Security-Policy: only a real app scheme, never one a browser runs or reads itself.
 */
import { expect, it } from 'vitest';
import { appScheme } from '../../src/web/interactions.js';

it('names a native app scheme, and nothing for the web, script or local schemes', () => {
  expect(appScheme('com.example.app:/callback')).toBe('com.example.app:');
  expect(appScheme('myapp://done')).toBe('myapp:');
  for (const uri of ['https://app.example/cb', 'http://127.0.0.1:4000/cb', 'javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd', 'blob:https://a/b', 'about:blank', 'not a uri']) {
    expect(appScheme(uri), uri).toBeUndefined();
  }
});
