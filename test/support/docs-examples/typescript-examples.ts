// Type-checks TypeScript examples with the repository's compiler settings, and
// runs the standalone ones (blocks with their own imports) as ES modules.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

export interface ExampleSource {
  /** File name inside the scratch directory: `.ts` (CommonJS, as the repository compiles) or `.mts` (ES module, top-level await). */
  name: string;
  text: string;
}

/**
 * What a library snippet (a `ts` block without imports) may use without saying
 * so: the packages it is written against, and what the reader brings (their own
 * data source and chart renderer).
 */
export const LIBRARY_SNIPPET_PRELUDE = `import { Module } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { McpController } from '@rekog/mcp-nest';
import { S2spConsumerTool, S2spModule, S2spResourceTool, type S2spConsumerPayload } from '@s2sp/core';
import { z } from 'zod';
declare class AlertCatalog { forArea(area: string): Record<string, unknown>[]; }
declare function render(rows: readonly Record<string, unknown>[]): { content: Array<{ type: 'text'; text: string }> };
`;

/** A standalone example is one that imports what it uses. */
export function isStandaloneProgram(code: string): boolean {
  return /^\s*import\s/m.test(code);
}

/** Writes `sources` into `dir` (inside the repository, so its node_modules resolve) and type-checks them; returns the errors. */
export function typeCheck(sources: readonly ExampleSource[], dir: string, repoRoot: string): string[] {
  const files = sources.map((source) => {
    const path = join(dir, source.name);
    writeFileSync(path, source.text);
    return path;
  });
  const configPath = join(repoRoot, 'tsconfig.json');
  const config = ts.parseJsonConfigFileContent(
    ts.readConfigFile(configPath, ts.sys.readFile).config,
    ts.sys,
    repoRoot,
    undefined,
    configPath,
  );
  const options: ts.CompilerOptions = {
    ...config.options,
    noEmit: true,
    incremental: false,
    tsBuildInfoFile: undefined,
    rootDir: undefined,
    sourceMap: false,
  };
  const program = ts.createProgram(files, options);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where =
      diagnostic.file && diagnostic.start !== undefined
        ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start)
        : undefined;
    const location = diagnostic.file
      ? `${diagnostic.file.fileName}${where ? `:${where.line + 1}:${where.character + 1}` : ''}: `
      : '';
    return location + ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
  });
}

/** Compiles an `.mts` example to JavaScript next to it and runs it with Node. */
export function runModule(
  source: ExampleSource,
  dir: string,
  options: { env: NodeJS.ProcessEnv; timeoutMs: number },
): { status: number | null; stdout: string; stderr: string } {
  const output = ts.transpileModule(source.text, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const path = join(dir, source.name.replace(/\.mts$/, '.mjs'));
  writeFileSync(path, output);
  const result = spawnSync(process.execPath, [path], {
    cwd: dir,
    env: { ...process.env, ...options.env },
    encoding: 'utf8',
    timeout: options.timeoutMs,
  });
  return {
    status: result.status,
    stdout: result.stdout ?? '',
    stderr: `${result.stderr ?? ''}${result.error ? `\n${result.error.message}` : ''}`,
  };
}
