/** The HiGHS solver (the `highs` package) as the tests' attackers use it: an LP model whose objective they swap. */
type Highs = { createModel(source: { format: 'lp'; data: string }): HighsModel };

export interface HighsModel {
  options: { set(o: Record<string, unknown>): void };
  getColByName(name: string): number;
  changeColCost(i: number, c: number): void;
  run(): void;
  getModelStatus(): number;
  getObjectiveValue(): number;
  getSolution(): { colValue: number[] };
  clearSolver(): void;
  dispose(): void;
}

let highs: Promise<Highs> | undefined;
/** Loads the WebAssembly solver once per test file. */
export const loadHighs = () => (highs ??= import('highs').then((m) => (m.default as unknown as () => Promise<Highs>)()));
