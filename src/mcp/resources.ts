/**
 * The public statistics as MCP resources: each published page as markdown (the text at
 * /data/{slug}.md) and its latest statistics document (the JSON at /api/data/{slug}), read
 * from the publication `serve` is answering from, so a resource is exactly the public file.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { publicUrl, type PublicArtifact } from '../core/public-paths.js';
import type { Publication } from '../serve/publication.js';
import { SLUGS } from '../stats/types.js';

/** The publication being served now (null while nothing is published, or on an api-only server). */
export type PublicationSource = () => Publication | null;

export function registerStatisticsResources(server: McpServer, publication: Publication, baseUrl: string): void {
  for (const slug of SLUGS) {
    const kinds: [PublicArtifact, string, string][] = [
      [{ kind: 'markdown', slug }, `${slug} (page)`, `The ${slug} statistics page as markdown: every published figure of the latest month with its definition and citation (CC BY 4.0).`],
      [{ kind: 'latest-json', slug }, `${slug} (JSON)`, `The ${slug} statistics document of the latest month (schema_version 1): every stat with value, n, null_rate, suppression and delta.`],
    ];
    for (const [artifact, title, description] of kinds) {
      const url = publicUrl(baseUrl, artifact);
      const file = publication.byPath.get(url.slice(baseUrl.length));
      if (!file || file.body === null) continue;
      const body = file.body;
      const mimeType = file.contentType.split(';')[0]!.trim();
      // A stateless server sends no resources/list_changed (the SDK would advertise it).
      server.server.registerCapabilities({ resources: { listChanged: false } });
      server.registerResource(`${artifact.kind === 'markdown' ? 'page' : 'document'}:${slug}`, url, { title, description, mimeType }, async () => ({
        contents: [{ uri: url, mimeType, text: body.toString('utf8') }],
      }));
    }
  }
}
