// Spectral's ruleset for openapi.json: its OpenAPI rules and the OWASP API Security
// Top 10 ruleset, run by test/node/document/openapi-lint.test.ts, which fails on any problem.
// A rule is switched off here only for a reason stated on its line.
import { truthy } from "@stoplight/spectral-functions";
import owasp from "@stoplight/spectral-owasp-ruleset";
import { oas } from "@stoplight/spectral-rulesets";

const OFF = "off";

export default {
  extends: [oas, owasp],
  rules: {
    // Pet ids are integers by the interface; the key, not the id, is what guards a pet.
    "owasp:api1:2023-no-numeric-ids": OFF,
    // It asks for RateLimit or X-RateLimit-Limit, which say what remains: the Workers rate-limit binding does not tell, so the API sends the draft's RateLimit-Policy instead, required below.
    "owasp:api4:2023-rate-limit": OFF,
    "rate-limit-policy": {
      message: "An answer past authentication must describe the RateLimit-Policy header.",
      severity: "error",
      given: "$.paths[?(@property.match(/^\\/pets/))][*].responses[?(@property.match(/^(2|4)/))]",
      // biome-ignore lint/suspicious/noThenProperty: Spectral's rules name their check so.
      then: { field: "headers.RateLimit-Policy", function: truthy },
    },
  },
  overrides: [
    // It reads every map named headers, and components.headers is the map of shared headers, not an answer's.
    { files: ["openapi.json#/components/headers"], rules: { "owasp:api8:2023-define-cors-origin": OFF } },
    // The local server (`npm run dev`) is plain HTTP on the developer's machine.
    { files: ["openapi.json#/servers/2"], rules: { "owasp:api8:2023-no-server-http": OFF } },
    // Free text for people: a name in any script (its rule is in its description and kept by the API), a message.
    {
      files: [
        "openapi.json#/components/schemas/Pet/properties/name",
        "openapi.json#/components/schemas/NewPet/properties/name",
        "openapi.json#/components/schemas/Error/properties/message",
      ],
      rules: { "owasp:api4:2023-string-restricted": OFF },
    },
    // The document and its reference page are public: no key, no rate limit, and no input to refuse.
    {
      files: ["openapi.json#/paths/~1openapi.json", "openapi.json#/paths/~1docs"],
      rules: {
        "owasp:api2:2023-read-restricted": OFF,
        "owasp:api8:2023-define-error-responses-401": OFF,
        "owasp:api8:2023-define-error-validation": OFF,
        "owasp:api4:2023-rate-limit-responses-429": OFF,
      },
    },
  ],
};
