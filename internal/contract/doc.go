// Package contract holds the service's wire contract as an OpenAPI 3.0
// document (openapi.yaml, embedded) and checks HTTP exchanges against it
// with kin-openapi's openapi3filter, so that neither the SDK's requests
// nor the fake's replies can drift from what the service publishes.
//
// # What is checked
//
// For a request: that it addresses a published operation (an unknown path
// or method is a finding), its path and query parameters (types, bounds,
// enums; a query parameter the operation does not publish is a finding,
// so a filter on a list without one fails), its credentials (a Bearer
// token on the API; on the token endpoint HTTP Basic or client_id and
// client_secret in the body, not both; only their presence and form), its
// content type and its body: its schema, then the rules the document
// states in prose and the project's own (x-exactly-one,
// x-mutually-exclusive, x-project-rule; package internal/wire checks
// them). Multipart uploads must carry exactly one "file" part with a file
// name.
//
// Request bodies may carry members the document does not list, as the
// published schemas allow. WithStrictRequests refuses them where the
// document does not keep them (additionalProperties: true): that is the
// SDK's own check that it sends no guessed member name, not the service's
// contract, and CheckFakes uses it.
//
// For a reply: that its status is published for the operation (a 200
// for a create that publishes 201 fails), its content type, and its body
// against the schema (fields the service always sends are required, types
// and enums are strict, unknown fields are allowed). Error replies (4xx,
// 5xx) may carry any body: none is published. A success reply the
// document declares without content must come without a body.
//
// Paths are matched after the API base (default "/v1") or the token host's
// path (default ""), whatever the host: see WithBases.
//
// Findings never repeat the credentials, the token of a token reply, or
// the values found in a body: a finding names where and which rule.
//
// # Use in the end-to-end suite
//
// Every test binary that talks to workflowtest's fake through the SDK
// installs the check once, in TestMain, with CheckFakes: from then on every
// HTTP client a workflowtest server hands out (Server.HTTPClient, and so
// Server.Client) sends through the contract transport, token requests
// included, and a finding fails the test that started the server (or the
// binary, for a server of an Example function). Programs that build their
// own client from an address (the examples) are pointed at
// FakeCheck.Proxy. A test that passes its own WithHTTPClient goes around
// the check; it must say why. workflowtest does not import this package:
// it only applies the hook of internal/fakehook.
//
// CheckFakes shares one Validator across the binary: with
// WORKFLOW_CONTRACT_COVERAGE set, Exit lists the operations no request
// addressed (go test -v shows it). Elsewhere, compare Validator.Seen with
// Validator.Operations.
//
// Replies that a test deliberately puts outside the contract (faults
// injected into the fake: a 503, a body cut in half) carry the header
// X-Workflowtest-Fault and are skipped (WithIgnoredResponses); their
// requests are still checked.
package contract
