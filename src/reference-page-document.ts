// The parts of OpenAPI 3.1 that the reference page reads (those that
// scripts/openapi-document.ts writes), and the two ways into them that every part of
// the page needs: following a $ref, and gathering examples.

export type Reference = { $ref: string };
/** OpenAPI writes `examples` as a map of Example Objects, JSON Schema as an array: either may come. */
export type Examples = { example?: unknown; examples?: unknown };
export type Example = { summary?: string; description?: string; value?: unknown; externalValue?: string };
export type Schema = Examples & {
  $ref?: string;
  type?: string | string[];
  format?: string;
  description?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  allOf?: Schema[];
  additionalProperties?: boolean | Schema;
};
export type Parameter = Examples & {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
};
export type Header = Examples & { description?: string; schema?: Schema };
export type Content = Record<string, Examples & { schema?: Schema }>;
export type RequestBody = { description?: string; required?: boolean; content: Content };
export type Response = { description: string; headers?: Record<string, Header | Reference>; content?: Content };
export type Operation = {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  deprecated?: boolean;
  security?: unknown[];
  parameters?: (Parameter | Reference)[];
  requestBody?: RequestBody | Reference;
  responses: Record<string, Response | Reference>;
};
export type OpenApiDocument = {
  info: { title: string; version: string; description?: string };
  security?: unknown[];
  servers?: {
    url: string;
    description?: string;
    variables?: Record<string, { default: string; description?: string }>;
  }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas?: Record<string, Schema>;
    securitySchemes?: Record<string, { type: string; scheme?: string; description?: string }>;
  };
};

const isReference = (value: object): value is Reference => "$ref" in value;
export const referenceName = (ref: string) => ref.slice(ref.lastIndexOf("/") + 1);

export const readerOf = (document: OpenApiDocument) => {
  const resolve = <T extends object>(value: T | Reference): T => {
    if (!isReference(value)) return value;
    let target: unknown = document;
    for (const segment of value.$ref.replace(/^#\//, "").split("/"))
      target = (target as Record<string, unknown>)[segment.replaceAll("~1", "/").replaceAll("~0", "~")];
    if (target === undefined) throw new Error(`The OpenAPI document has no ${value.$ref}.`);
    return target as T;
  };

  /** The examples of a parameter, header, media type or schema, in the document's order. */
  const examplesOf = ({ example, examples }: Examples): Example[] => [
    ...(example === undefined ? [] : [{ value: example }]),
    ...(Array.isArray(examples)
      ? examples.map((value) => ({ value }))
      : Object.entries(examples && typeof examples === "object" ? examples : {}).map(([name, entry]) => ({
          summary: name,
          ...resolve<Example>(entry),
        }))),
  ];

  return { resolve, examplesOf };
};
export type Reader = ReturnType<typeof readerOf>;
