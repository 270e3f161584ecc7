// Starts Swagger UI on the document this same Worker serves. Copied with Swagger UI's
// own files into the static assets by scripts/docs-assets.ts.
window.ui = SwaggerUIBundle({
  url: "/v1/openapi.json",
  dom_id: "#swagger-ui",
  // The default would send the document to an online validator: nothing leaves this host.
  validatorUrl: null,
  deepLinking: true,
  displayOperationId: true,
});
