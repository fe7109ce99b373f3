/** The database edge of the model insights (accounts/insights.ts): reads the model, outcomes and evidence it needs. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { modelWeights, unpackEvidence } from './evidence.js';
import { backtest, type LabelledInputs, type ModelInsightsBody, posteriorSd, shown, topWeights } from './insights.js';
import { labelsOf } from './labels.js';
import { listOutcomes } from './outcomes-store.js';
import { detailColumn, rankingHead } from './ranking-reads.js';
import type { OutcomeRow } from './tables.js';
import type { StoredModel } from './refresh.js';

/** The model insights of a workspace, read from its current model, its outcomes and its current ranking's evidence; its figures as shown (insights.ts shown). */
export async function modelInsights(q: Kysely<Database>, workspaceId: string): Promise<ModelInsightsBody> {
  return shown(await computedInsights(q, workspaceId));
}

async function computedInsights(q: Kysely<Database>, workspaceId: string): Promise<ModelInsightsBody> {
  const head = await rankingHead(q, workspaceId);
  const model = await q.selectFrom('workspace_models').select(['version', 'labels', 'fitted_at', 'model']).where('workspace_id', '=', workspaceId).executeTakeFirst();
  const outcomes = await listOutcomes(q, workspaceId);
  const weights = model ? await modelWeights(q, workspaceId, model.version) : null;

  let shown: Pick<ModelInsightsBody, 'intercept' | 'weights' | 'learned'> = { intercept: null, weights: [], learned: [] };
  if (model && weights) {
    const seen = outcomes.filter((o) => seenBy(o, model));
    const labelled = head.gen === null ? [] : await labelledInputs(q, workspaceId, head.gen, seen);
    // The prior sds the fit learned for its subjects and pairs (prior.ts LEARNED_SD), so each weight's spread is the fit's.
    const learned = (JSON.parse(model.model) as StoredModel).prior_sd;
    shown = topWeights(weights, posteriorSd(weights, labelled, learned), learned);
  }

  const latest = new Map<string, string>();
  for (const o of outcomes) latest.set(o.store_id, o.action);
  const actions = [...latest.values()];
  return {
    object: 'model_insights',
    model_version: model ? Number(model.version) : null,
    trained_at: model?.fitted_at ?? null,
    ranking_version: head.version,
    labels: {
      total: latest.size,
      won: actions.filter((a) => a === 'won').length,
      lost: actions.filter((a) => a === 'lost').length,
      in_progress: actions.filter((a) => a !== 'won' && a !== 'lost').length,
      used_by_model: model ? Number(model.labels) : 0,
    },
    ...shown,
    backtest: backtest(
      outcomes.map((o) => ({
        store_id: o.store_id,
        action: o.action,
        ranked_score: o.ranked_score === null ? null : Number(o.ranked_score),
        ranked_model_version: o.ranked_model_version === null ? null : Number(o.ranked_model_version),
      })),
    ),
  };
}

/**
 * Whether the model version saw the outcome when it was fitted: an outcome recorded while an
 * earlier version was current did; one recorded before scores were kept did if it predates the fit.
 */
function seenBy(o: OutcomeRow, model: { version: number; fitted_at: string }): boolean {
  return o.ranked_model_version !== null ? Number(o.ranked_model_version) < Number(model.version) : o.recorded_at <= model.fitted_at;
}

/** The labels of `outcomes` with each store's inputs (its stored evidence in details generation `gen`); stores the ranking lacks are left out, as the fit leaves them. */
async function labelledInputs(q: Kysely<Database>, workspaceId: string, gen: number, outcomes: readonly OutcomeRow[]): Promise<LabelledInputs[]> {
  const labels = labelsOf(outcomes);
  const evidence = await detailColumn(q, workspaceId, gen, 'evidence', labels.map((l) => l.store_id));
  return labels.flatMap((l) => {
    const e = evidence.get(l.store_id);
    return e === undefined ? [] : [{ inputs: unpackEvidence(e) as unknown as { key: string; x: number }[], y: l.y, weight: l.weight }];
  });
}
