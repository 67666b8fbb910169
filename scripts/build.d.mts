// The types of scripts/build.mjs, for the test that checks each part's sources.

/** A part of dist/ that `npm start` needs: the paths it is built from, the files it writes, and the command that builds it. */
export interface Part {
  readonly sources: ReadonlyArray<string>
  readonly output: ReadonlyArray<string>
  readonly build: ReadonlyArray<string>
}

export declare const PARTS: Readonly<Record<'cli' | 'explorer' | 'admin', Part>>
