/** The contract names platforms neutrally; upstream names come from config (PROVIDER_PLATFORM_NAMES). */
export const PLATFORMS = ['platform_a', 'platform_b', 'platform_c', 'platform_d'] as const;
export type Platform = (typeof PLATFORMS)[number];

export const CURATOR_PLATFORMS = ['platform_a', 'platform_b', 'platform_c'] as const;
export type CuratorPlatform = (typeof CURATOR_PLATFORMS)[number];

/** Two-way name table: neutral ↔ upstream. */
export class PlatformNames {
  private readonly reverse: Map<string, string>;

  constructor(private readonly forward: Record<string, string>) {
    this.reverse = new Map(Object.entries(forward).map(([neutral, upstream]) => [upstream, neutral]));
  }

  upstream(neutral: string): string {
    const name = this.forward[neutral];
    if (!name) throw new Error(`No upstream name configured for ${neutral}`);
    return name;
  }

  /** The neutral name of an upstream one; names without a neutral counterpart stay as they are. */
  neutral(upstream: string): string {
    return this.reverse.get(upstream) ?? upstream;
  }

  /** Renames the keys of an object that is keyed by upstream platform names. */
  neutralKeys<T>(obj: Record<string, T>): Record<string, T> {
    return Object.fromEntries(Object.entries(obj).map(([k, v]) => [this.neutral(k), v]));
  }
}
