import type { BuildOptions } from 'esbuild';

export declare const NODE_TARGET: string;
export declare function isServerSource(path: string): boolean;
export declare function serverBuildOptions(root: string, entryPoints: string[]): BuildOptions & { entryPoints: string[] };
