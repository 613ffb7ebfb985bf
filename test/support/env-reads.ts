// Where a library's source reads the environment: every `process.env` reference and every call of
// @s2sp/platform's env readers, with the function it sits in, found with the TypeScript compiler API.
import ts from 'typescript';

/** The readers of @s2sp/platform (libs/platform/src/env.ts) that read process.env. */
export const ENV_READERS: readonly string[] = [
  'envString',
  'envOptional',
  'envInt',
  'envList',
  'envOptionalList',
  'envChoice',
];

export interface EnvRead {
  line: number;
  /** What is read: `process.env`, `process.env.NAME`, or the reader called, e.g. `envInt()`. */
  what: string;
  /** The name of the nearest named function around it; undefined at module scope. */
  enclosingFunction: string | undefined;
  /** The read is the default value of a parameter. */
  defaultParameter: boolean;
}

/** Every read of the environment in one source file. */
export function envReadsIn(fileName: string, text: string): EnvRead[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const readers = readerNamesIn(source);
  const reads: EnvRead[] = [];
  const visit = (node: ts.Node): void => {
    const what = envReadOf(node, readers);
    if (what !== undefined) {
      reads.push({
        line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
        what,
        enclosingFunction: enclosingFunctionName(node),
        defaultParameter: ts.isParameter(node.parent) && node.parent.initializer === node,
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return reads;
}

/** Local names of the env readers in this file: imported (possibly renamed), or declared here (env.ts). */
function readerNamesIn(source: ts.SourceFile): Map<string, string> {
  const names = new Map<string, string>();
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name && ENV_READERS.includes(statement.name.text))
      names.set(statement.name.text, statement.name.text);
    const bindings = ts.isImportDeclaration(statement) ? statement.importClause?.namedBindings : undefined;
    if (bindings && ts.isNamedImports(bindings)) {
      for (const element of bindings.elements) {
        const imported = (element.propertyName ?? element.name).text;
        if (ENV_READERS.includes(imported)) names.set(element.name.text, imported);
      }
    }
  }
  return names;
}

function envReadOf(node: ts.Node, readers: Map<string, string>): string | undefined {
  if (isProcessEnv(node)) {
    const parent = node.parent;
    return ts.isPropertyAccessExpression(parent) && parent.expression === node
      ? `process.env.${parent.name.text}`
      : 'process.env';
  }
  // `const { env } = process`
  if (
    ts.isVariableDeclaration(node) &&
    ts.isObjectBindingPattern(node.name) &&
    node.initializer !== undefined &&
    isProcess(node.initializer) &&
    node.name.elements.some((element) => ((element.propertyName ?? element.name) as ts.Identifier).text === 'env')
  ) {
    return 'process.env';
  }
  if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && readers.has(node.expression.text))
    return `${readers.get(node.expression.text)}()`;
  return undefined;
}

/** `process.env`, `process['env']`, `globalThis.process.env`. */
function isProcessEnv(node: ts.Node): boolean {
  if (ts.isPropertyAccessExpression(node)) return node.name.text === 'env' && isProcess(node.expression);
  if (ts.isElementAccessExpression(node))
    return (
      ts.isStringLiteralLike(node.argumentExpression) &&
      node.argumentExpression.text === 'env' &&
      isProcess(node.expression)
    );
  return false;
}

function isProcess(node: ts.Expression): boolean {
  if (ts.isIdentifier(node)) return node.text === 'process';
  return ts.isPropertyAccessExpression(node) && node.name.text === 'process' && ts.isIdentifier(node.expression);
}

/** The nearest function around `node` that has a name (its own, or that of the variable or property it is assigned to). */
function enclosingFunctionName(node: ts.Node): string | undefined {
  for (let current = node.parent; current !== undefined; current = current.parent) {
    if (!ts.isFunctionLike(current)) continue;
    const name = functionName(current);
    if (name !== undefined) return name;
  }
  return undefined;
}

function functionName(fn: ts.SignatureDeclaration): string | undefined {
  if (ts.isConstructorDeclaration(fn)) return 'constructor';
  if (fn.name !== undefined && (ts.isIdentifier(fn.name) || ts.isPrivateIdentifier(fn.name))) return fn.name.text;
  const parent = fn.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && ts.isIdentifier(parent.name))
    return parent.name.text;
  return undefined;
}
