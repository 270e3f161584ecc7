// The reference page's curl line per operation. It must work as pasted into a POSIX
// shell after `KEY=<an API key>`: the path's parameters filled in, the key read from
// $KEY, everything else single-quoted, and the request body's example sent.
import type { OpenApi, Reader } from "./document";

type Parameter = OpenApi.ParameterObject;
// openapi-types types a 3.1 parameter's schema as 3.0's, which lacks `const`.
const schemaOf = (resolve: Reader["resolve"], parameter: Parameter) =>
  (parameter.schema ? resolve(parameter.schema) : {}) as OpenApi.SchemaObject;

const shellQuote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

export const curlCommand = (
  { resolve, examplesOf }: Reader,
  {
    url,
    method,
    operation,
    needsKey,
  }: { url: string; method: string; operation: OpenApi.OperationObject; needsKey: boolean },
): string => {
  /** The first example the document gives for a parameter, on the parameter or on its schema. */
  const exampleOf = (parameter: Parameter): unknown => {
    const schemas = parameter.schema ? [parameter.schema, resolve(parameter.schema)] : [];
    return [parameter, ...schemas].flatMap(examplesOf).find(({ value }) => value !== undefined)?.value;
  };
  /** Its example, else a value its schema allows. */
  const sentValue = (parameter: Parameter | undefined): string => {
    if (!parameter) return "1";
    const schema = schemaOf(resolve, parameter);
    return String(exampleOf(parameter) ?? schema.default ?? schema.const ?? schema.enum?.[0] ?? schema.minimum ?? 1);
  };
  // An optional query parameter goes in only with an example that every server accepts: a
  // number or a value from a fixed set. A free-form string (the cursor) is copied from an
  // earlier answer, and an example of one would be refused.
  const isPortable = (parameter: Parameter) => {
    const schema = schemaOf(resolve, parameter);
    const fixed = schema.enum !== undefined || schema.const !== undefined;
    const numeric = [schema.type ?? []].flat().some((type) => ["integer", "number", "boolean"].includes(type));
    return exampleOf(parameter) !== undefined && (fixed || numeric);
  };

  const parameters = (operation.parameters ?? []).map((parameter) => resolve(parameter));
  const path = url.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(sentValue(parameters.find((parameter) => parameter.in === "path" && parameter.name === name))),
  );
  const query = new URLSearchParams(
    parameters
      .filter((parameter) => parameter.in === "query" && (parameter.required || isPortable(parameter)))
      .map((parameter) => [parameter.name, sentValue(parameter)]),
  ).toString();

  const lines = [`curl -i${method === "GET" ? "" : ` -X ${method}`} ${shellQuote(query ? `${path}?${query}` : path)}`];
  // Double quotes, so that the shell puts the key in.
  if (needsKey) lines.push(`-H "Authorization: Bearer $KEY"`);
  for (const parameter of parameters)
    if (parameter.in === "header" && parameter.required)
      lines.push(`-H ${shellQuote(`${parameter.name}: ${sentValue(parameter)}`)}`);
  const requestBody = operation.requestBody && resolve(operation.requestBody);
  const body = Object.entries(requestBody?.content ?? {})
    .map(([mediaType, media]) => ({ mediaType, example: examplesOf(media).find(({ value }) => value !== undefined) }))
    .find(({ example }) => example);
  if (body?.example) {
    const { value } = body.example;
    const text = typeof value === "string" && !/json/i.test(body.mediaType) ? value : JSON.stringify(value);
    lines.push(`-H ${shellQuote(`Content-Type: ${body.mediaType}`)} -d ${shellQuote(text)}`);
  }
  return lines.join(" \\\n  ");
};
