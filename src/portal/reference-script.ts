// The reference page's own script and stylesheet, served as files (the portal's CSP allows no inline script).

/**
 * Starts Swagger UI on the document the page names. The document is fetched here rather than by Swagger UI so that
 * the reader sees each operation once (the .json/.xml twin of a path and the CORS preflights are left out of the view:
 * the page's text says they exist) and so that a bearer scheme can join its security: the OAuth scheme of the document gets a token by a flow, and a reader who holds
 * one already (the quickstart's curl) pastes it into Authorize instead. validatorUrl is off: Swagger UI would otherwise
 * send the document to validator.swagger.io, another host.
 */
export const REFERENCE_SCRIPT = `'use strict';
(function () {
  var root = document.getElementById('swagger-ui');
  if (!root || typeof window.SwaggerUIBundle !== 'function') return;
  var url = root.getAttribute('data-document');
  function withBearer(spec) {
    var components = (spec.components = spec.components || {});
    // First in Authorize's list: pasting a token is the quickest way to try an operation.
    components.securitySchemes = Object.assign(
      {
        bearerToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'An access token you hold already (from POST /oauth2/token), sent as Authorization: Bearer.'
        }
      },
      components.securitySchemes
    );
    Object.keys(spec.paths || {}).forEach(function (path) {
      var item = spec.paths[path];
      Object.keys(item).forEach(function (method) {
        var operation = item[method];
        if (!operation || !Array.isArray(operation.security) || operation.security.length === 0) return;
        operation.security.unshift({ bearerToken: [] });
      });
    });
    return spec;
  }
  // A path ending in .json or .xml whose plain path is there too is its twin; OPTIONS is the CORS preflight.
  function forReaders(spec) {
    var paths = spec.paths || {};
    Object.keys(paths).forEach(function (path) {
      var plain = path.replace(/\\.(json|xml)$/, '');
      if (plain !== path && paths[plain]) delete paths[path];
      else delete paths[path].options;
    });
    return spec;
  }
  root.textContent = 'Drawing the reference…';
  // The page preloads the document while the bundle loads: the same plain request takes the preloaded answer.
  fetch(url)
    .then(function (answer) {
      if (!answer.ok) throw new Error('the document answered ' + answer.status);
      return answer.json();
    })
    .then(function (spec) {
      root.textContent = '';
      window.SwaggerUIBundle({
        spec: withBearer(forReaders(spec)),
        domNode: root,
        deepLinking: true,
        docExpansion: 'list',
        defaultModelsExpandDepth: -1,
        displayOperationId: false,
        validatorUrl: null,
        tryItOutEnabled: false,
        persistAuthorization: false
      });
    })
    .catch(function (error) {
      root.textContent = 'The reference could not be drawn (' + error.message + '). The OpenAPI document is at ' + url + '.';
    });
})();
`;

/**
 * Widens the portal's reading column for the reference, undoes the page frame's code and table cell styles inside
 * Swagger UI (which has its own), and keeps Swagger UI within a 390 px screen.
 */
export const REFERENCE_CSS = `main{max-width:72rem}
.swagger-ui code{background:none;padding:0;overflow-wrap:normal}
.swagger-ui td,.swagger-ui th{overflow-wrap:normal}
.reference-intro{margin-bottom:1rem}
.swagger-ui .wrapper{padding:0}
.swagger-ui .information-container,.swagger-ui .info{margin:1rem 0}
.swagger-ui .opblock .opblock-summary-path{word-break:break-all}
.swagger-ui table{table-layout:auto;width:100%}
.swagger-ui pre,.swagger-ui .microlight{white-space:pre-wrap;word-break:break-word}
@media (max-width:600px){
.swagger-ui .opblock .opblock-summary{flex-wrap:wrap}
.swagger-ui .opblock .opblock-summary-description{flex-basis:100%}
.swagger-ui .scheme-container .schemes{flex-wrap:wrap}
.swagger-ui .dialog-ux .modal-ux{max-width:95vw}
.swagger-ui .response-col_links{display:none}
.swagger-ui .responses-inner,.swagger-ui .opblock-section-header{padding-left:8px;padding-right:8px}
.swagger-ui .responses-table .response-col_status{width:3.5em}
.swagger-ui table.headers thead{display:none}
.swagger-ui table.headers tr{display:block;padding:.4em 0;border-bottom:1px solid #ddd}
.swagger-ui table.headers td{display:block;padding:0;border:none}
}
`;
