import { chainSealer } from './chain/chainSealer.ts';
import { catalogProjection } from './catalog/catalogProjection.ts';
import type { Projection } from './projection.ts';

/** In run order: the chain is sealed first, so live cursors never run ahead of it. */
export const projections: readonly Projection[] = [chainSealer, catalogProjection];

export function projectionNamed(name: string): Projection {
  const p = projections.find((x) => x.name === name);
  if (!p) throw new Error(`unknown projection ${name}; known: ${projections.map((x) => x.name).join(', ')}`);
  return p;
}
