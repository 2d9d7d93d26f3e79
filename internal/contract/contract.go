package contract

import (
	"bytes"
	"context"
	_ "embed" // the contract document
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
	"github.com/seed-a15e58aa/workflow-go/internal/wire"
)

//go:embed openapi.yaml
var document []byte

// Document returns a copy of the contract document (OpenAPI 3.0, YAML).
func Document() []byte { return bytes.Clone(document) }

// DefaultMaxMultipart is how many bytes of a multipart/form-data request
// body are held in memory for validation, unless WithMaxMultipart says
// otherwise. A body up to this size is validated entirely against the
// document; of a larger one, only the part headers found within the first
// DefaultMaxMultipart bytes are checked (part names, the file part's file
// name), and the rest streams on unread. 1 MiB holds the headers of every
// part the SDK writes before the file's bytes, so even a 250 MB upload is
// checked for its shape without being held in memory.
const DefaultMaxMultipart = 1 << 20

// noBodyLimit bounds how much of a success reply the document declares
// without content is read to find out whether there is a body at all.
const noBodyLimit = 64 << 10

// tokenPath is the token endpoint's path in the document, relative to
// the token host.
const tokenPath = "/oauth/token"

// Option configures a Validator.
type Option func(*config)

type config struct {
	apiBase      string // path prefix of the API, without a trailing slash
	authBase     string // path prefix of the token host, without a trailing slash
	maxMultipart int64
	ignore       func(*http.Request, *http.Response) bool
	strict       bool
}

// WithBases sets the API base address ({base_url}, ending in /v1) and the
// token host's address ({auth_url}) of the service being talked to. Only
// their paths matter: a request is matched by its path, whatever its host,
// so that one validator serves every region and test server. The defaults
// are "/v1" and "" (the token endpoint at /oauth/token).
func WithBases(apiBase, authBase string) Option {
	return func(c *config) {
		c.apiBase = basePath(apiBase)
		c.authBase = basePath(authBase)
	}
}

// WithMaxMultipart changes how many bytes of a multipart request body are
// held for validation (DefaultMaxMultipart). n <= 0 keeps the default.
func WithMaxMultipart(n int64) Option {
	return func(c *config) {
		if n > 0 {
			c.maxMultipart = n
		}
	}
}

// WithStrictRequests makes a member of a JSON request body that the
// document does not declare a finding, except inside objects the document
// keeps open (additionalProperties: true: Passthrough objects, view
// variants, agent subtypes, tools, skill properties). The published
// schemas allow such members, so this is not the service's contract but
// the SDK's own check that it sends no guessed member name: CheckFakes
// uses it, for what the SDK sends to the fake.
func WithStrictRequests() Option {
	return func(c *config) { c.strict = true }
}

// WithIgnoredResponses makes the validator skip the replies for which
// ignore returns true: replies that are deliberately outside the contract,
// such as faults a test injects into the fake on purpose. The request is
// still validated.
func WithIgnoredResponses(ignore func(*http.Request, *http.Response) bool) Option {
	return func(c *config) { c.ignore = ignore }
}

func basePath(raw string) string {
	p := raw
	if u, err := url.Parse(raw); err == nil {
		p = u.EscapedPath()
	}
	return strings.TrimRight(p, "/")
}

// Validator checks requests and replies against the contract document.
// It is safe for concurrent use.
type Validator struct {
	cfg    config
	doc    *openapi3.T
	router routers.Router
	token  *routers.Route
	opts   openapi3filter.Options

	seenMu sync.Mutex
	seen   map[string]bool
}

// New returns a validator of the embedded document (parsed once and
// shared by every validator).
func New(opts ...Option) (*Validator, error) {
	cfg := config{apiBase: "/v1", maxMultipart: DefaultMaxMultipart}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	l, err := loadDocument()
	if err != nil {
		return nil, err
	}
	doc, router := l.doc, l.router
	item := doc.Paths.Value(tokenPath)
	if item == nil || item.Post == nil {
		return nil, errors.New("contract: the document has no token endpoint")
	}
	v := &Validator{
		cfg:    cfg,
		doc:    doc,
		router: router,
		token:  &routers.Route{Spec: doc, Path: tokenPath, PathItem: item, Method: http.MethodPost, Operation: item.Post},
		seen:   map[string]bool{},
		opts: openapi3filter.Options{
			MultiError:                        true,
			IncludeResponseStatus:             true,
			RejectWhenRequestBodyNotSpecified: true,
			SkipSettingDefaults:               true,
			AuthenticationFunc:                checkCredentials,
			SchemaValidationOptions:           doc.GetSchemaValidationOptions(),
		},
	}
	v.opts.WithCustomSchemaErrorFunc(schemaMessage)
	return v, nil
}

// loadDocument parses and checks the embedded document once; the result
// is only read afterwards, so every Validator shares it.
var loadDocument = sync.OnceValues(func() (loaded, error) {
	doc, err := openapi3.NewLoader().LoadFromData(document)
	if err != nil {
		return loaded{}, fmt.Errorf("contract: loading the document: %w", err)
	}
	// Requests are matched on the path after the configured base, so the
	// document's relative servers must not take part in routing.
	doc.Servers = nil
	dropProjectRules(doc)
	for _, f := range []string{"uuid", "email", "date-time"} { // wire's checks, the fake's and the SDK's
		doc.SetStringFormatValidator(f, openapi3.NewCallbackValidator(func(s string) error { return wire.CheckFormat(f, s) }))
	}
	if err := doc.Validate(context.Background()); err != nil {
		return loaded{}, fmt.Errorf("contract: the document is invalid: %w", err)
	}
	router, err := legacy.NewRouter(doc)
	if err != nil {
		return loaded{}, fmt.Errorf("contract: building the router: %w", err)
	}
	return loaded{doc, router}, nil
})

// dropProjectRules removes from the document the members marked
// x-project-rule (the fake's own rules, such as an automation's name):
// they are not the service's contract, so a request that breaks one is
// no finding. Package wire checks them for the fake.
func dropProjectRules(doc *openapi3.T) {
	for _, ref := range doc.Components.Schemas {
		s := ref.Value
		if s == nil {
			continue
		}
		for name, p := range s.Properties {
			if p.Value == nil {
				continue
			}
			if _, ok := p.Value.Extensions["x-project-rule"]; ok {
				s.Properties[name] = openapi3.NewSchemaRef("", &openapi3.Schema{})
				s.Required = slices.DeleteFunc(s.Required, func(r string) bool { return r == name })
			}
		}
	}
}

type loaded struct {
	doc    *openapi3.T
	router routers.Router
}

// Operations returns the operationId of every operation in the document,
// sorted.
func (v *Validator) Operations() []string {
	var out []string
	for _, item := range v.doc.Paths.Map() {
		for _, op := range item.Operations() {
			out = append(out, op.OperationID)
		}
	}
	slices.Sort(out)
	return out
}

// Seen returns, sorted, the operationId of every operation a request
// checked by v has addressed so far, valid or not. A suite that shares one
// validator can compare it with Operations to find the operations it
// never exercised.
func (v *Validator) Seen() []string {
	v.seenMu.Lock()
	defer v.seenMu.Unlock()
	out := make([]string, 0, len(v.seen))
	for op := range v.seen {
		out = append(out, op)
	}
	slices.Sort(out)
	return out
}

var defaultValidator = sync.OnceValues(func() (*Validator, error) { return New() })

// Validate checks req and its reply resp with a validator of the default
// bases (see WithBases); resp may be nil to check the request alone. See
// Validator.Validate.
func Validate(req *http.Request, resp *http.Response) error {
	v, err := defaultValidator()
	if err != nil {
		return err
	}
	return v.Validate(req, resp)
}

// Violation is a request or a reply that breaks the contract.
type Violation struct {
	// Operation is the document's operationId, empty when the request
	// matches no operation.
	Operation string
	// Method and Path are the request's method and escaped path.
	Method, Path string
	// Problems says what is wrong, one finding each.
	Problems []string
}

// Error lists the problems on one line.
func (v *Violation) Error() string {
	return v.prefix() + strings.Join(v.Problems, "; ")
}

func (v *Violation) prefix() string {
	op := v.Operation
	if op == "" {
		op = "(no operation)"
	}
	return "contract: " + op + " " + v.Method + " " + v.Path + ": "
}

// Messages returns one line per problem, each naming the operation, the
// method and the path.
func (v *Violation) Messages() []string {
	out := make([]string, len(v.Problems))
	for i, p := range v.Problems {
		out[i] = v.prefix() + p
	}
	return out
}

// Validate checks req against the operation it addresses and, when resp
// is not nil, resp against that operation's replies. It returns a
// *Violation listing every problem, or nil.
//
// The bodies are read and put back: req.Body (or a fresh copy from
// req.GetBody when set) and resp.Body are replaced by readers that give
// the same bytes. Of a multipart request body only the first
// WithMaxMultipart bytes are held; the rest stays unread in the replaced
// body.
func (v *Validator) Validate(req *http.Request, resp *http.Response) error {
	body := req.Body
	if req.GetBody != nil {
		fresh, err := req.GetBody()
		if err != nil {
			return fmt.Errorf("contract: copying the request body: %w", err)
		}
		body = fresh
	}
	ex, err := v.checkRequest(req, &body)
	if req.GetBody == nil {
		req.Body = body
	} else if body != nil {
		_ = body.Close()
	}
	if err != nil {
		return err
	}
	if resp != nil {
		v.checkResponse(ex, resp)
	}
	return ex.violation()
}

// exchange is one request and its reply on their way through the checks.
type exchange struct {
	req      *http.Request
	route    *routers.Route
	params   map[string]string
	input    *openapi3filter.RequestValidationInput
	problems []string
	secrets  []string
}

func (ex *exchange) addf(format string, args ...any) {
	ex.problems = append(ex.problems, fmt.Sprintf(format, args...))
}

// addErr adds the findings of a kin-openapi validation error.
func (ex *exchange) addErr(err error) {
	ex.problems = append(ex.problems, describe(err)...)
}

func (ex *exchange) violation() error {
	if len(ex.problems) == 0 {
		return nil
	}
	op := ""
	if ex.route != nil {
		op = ex.route.Operation.OperationID
	}
	probs := make([]string, len(ex.problems))
	for i, p := range ex.problems {
		probs[i] = redact(p, ex.secrets)
	}
	path := redact(ex.req.URL.EscapedPath(), ex.secrets)
	return &Violation{Operation: op, Method: ex.req.Method, Path: path, Problems: probs}
}

// checkRequest validates req, whose body is *body (which it replaces with
// a reader giving the same bytes). The error is a failure to read the
// body, not a violation.
func (v *Validator) checkRequest(req *http.Request, body *io.ReadCloser) (*exchange, error) {
	ex := &exchange{req: req, secrets: credentialSecrets(req.Header)}
	route, params, problem := v.find(req)
	if problem != "" {
		ex.problems = append(ex.problems, problem)
		// Leave the body as it is: nothing to check it against.
		return ex, nil
	}
	ex.route, ex.params = route, params
	v.seenMu.Lock()
	v.seen[route.Operation.OperationID] = true
	v.seenMu.Unlock()

	multipartBody := isMultipart(req.Header.Get("Content-Type"))
	limit := int64(-1)
	if multipartBody {
		limit = v.cfg.maxMultipart
	}
	buf, complete, err := takeBody(body, limit)
	if err != nil {
		return ex, fmt.Errorf("contract: reading the request body: %w", err)
	}
	if isTokenRequest(route) {
		ex.secrets = append(ex.secrets, formSecrets(buf)...)
	}

	vreq := req.Clone(req.Context())
	vreq.Body = io.NopCloser(bytes.NewReader(buf))
	if *body == nil || *body == http.NoBody {
		vreq.Body = http.NoBody
	}
	vreq.GetBody = nil
	opts := v.opts
	if multipartBody {
		ex.problems = append(ex.problems, checkMultipartShape(req.Header.Get("Content-Type"), buf, complete, multipartParts(route))...)
		opts.ExcludeRequestBody = !complete
	}
	ex.input = &openapi3filter.RequestValidationInput{Request: vreq, PathParams: params, Route: route, Options: &opts}
	if err := openapi3filter.ValidateRequest(req.Context(), ex.input); err != nil {
		ex.addErr(err)
	}
	ex.checkQueryNames()
	if complete {
		ex.checkProse(buf)
		if isTokenRequest(route) {
			ex.checkTokenCredentials(buf)
		}
		if v.cfg.strict {
			ex.checkFormNames(buf)
			ex.checkUnknownMembers(buf)
		}
	}
	return ex, nil
}

// isJSON reports whether the request's body is declared JSON.
func (ex *exchange) isJSON() bool {
	mt, _, _ := mime.ParseMediaType(ex.req.Header.Get("Content-Type"))
	return mt == "application/json"
}

// checkProse reports a JSON request body that breaks a rule the document
// states in prose (x-exactly-one, x-mutually-exclusive), which
// openapi3filter does not read. The schema's own rules are
// openapi3filter's to report; the project's rules are the fake's.
func (ex *exchange) checkProse(buf []byte) {
	id := op.ID(ex.route.Operation.OperationID)
	if !ex.isJSON() || !wire.Takes(id) {
		return
	}
	var p *wire.Problem
	if errors.As(wire.Check(id, buf, wire.Options{Published: true}), &p) && p.Prose {
		ex.addf("request body: %s", p.Error())
	}
}

// checkTokenCredentials reports a token request that carries the client's
// credentials in no place or in two: the HTTP Basic header, or the body's
// client_id and client_secret (RFC 6749 section 2.3: one method per
// request).
func (ex *exchange) checkTokenCredentials(buf []byte) {
	auth := ex.req.Header.Get("Authorization")
	inHeader := auth != ""
	if scheme, _, _ := strings.Cut(auth, " "); inHeader && !strings.EqualFold(scheme, "basic") {
		ex.addf("credentials: the token endpoint takes HTTP Basic credentials, not %s", scheme)
		return
	}
	var inBody bool
	if ex.isJSON() {
		var m map[string]any
		_ = json.Unmarshal(buf, &m)
		_, id := m["client_id"]
		_, secret := m["client_secret"]
		inBody = id || secret
	} else if q, err := url.ParseQuery(string(buf)); err == nil {
		inBody = q.Has("client_id") || q.Has("client_secret")
	}
	switch {
	case inHeader && inBody:
		ex.addf("credentials: in both the Basic header and the body (RFC 6749 section 2.3: one method per request)")
	case !inHeader && !inBody:
		ex.addf("credentials: none (the Basic header, or client_id and client_secret in the body)")
	}
}

// checkUnknownMembers reports, in the strict mode, a member of a JSON
// request body that the operation's schema does not declare, where the
// schema does not keep undeclared members (WithStrictRequests). Other
// problems of the body are openapi3filter's to report.
func (ex *exchange) checkUnknownMembers(buf []byte) {
	id := op.ID(ex.route.Operation.OperationID)
	if !ex.isJSON() || !wire.Takes(id) || wire.Check(id, buf, wire.Options{Published: true}) != nil {
		return
	}
	var p *wire.Problem
	if errors.As(wire.Check(id, buf, wire.Options{Strict: true, Published: true}), &p) {
		ex.addf("request body: %s: %s", p.Pointer, p.Rule)
	}
}

// checkFormNames reports, in the strict mode (WithStrictRequests), the
// fields of a form body that its schema does not list (kin-openapi's form
// decoder skips them).
func (ex *exchange) checkFormNames(buf []byte) {
	mt, _, err := mime.ParseMediaType(ex.req.Header.Get("Content-Type"))
	if err != nil || mt != "application/x-www-form-urlencoded" {
		return
	}
	rb := ex.route.Operation.RequestBody
	if rb == nil || rb.Value == nil {
		return
	}
	media := rb.Value.Content.Get(mt)
	if media == nil || media.Schema == nil || media.Schema.Value == nil {
		return
	}
	schema := media.Schema.Value
	form, err := url.ParseQuery(string(buf))
	if err != nil {
		ex.addf("request body: malformed form: %v", err)
		return
	}
	var unknown []string
	for name := range form {
		if _, ok := schema.Properties[name]; !ok {
			unknown = append(unknown, name)
		}
	}
	slices.Sort(unknown)
	for _, name := range unknown {
		ex.addf("request body: form field %q is not published", name)
	}
}

// find returns the operation req addresses, or a problem.
func (v *Validator) find(req *http.Request) (*routers.Route, map[string]string, string) {
	p := req.URL.EscapedPath()
	if p == v.cfg.authBase+tokenPath {
		if req.Method != http.MethodPost {
			return nil, nil, fmt.Sprintf("the token endpoint takes POST, not %s", req.Method)
		}
		return v.token, map[string]string{}, ""
	}
	rest, ok := strings.CutPrefix(p, v.cfg.apiBase)
	if !ok || !strings.HasPrefix(rest, "/") {
		return nil, nil, fmt.Sprintf("no operation: the path is neither under the API base %q nor the token endpoint %q", v.cfg.apiBase+"/", v.cfg.authBase+tokenPath)
	}
	// Route on the escaped path, so that an escaped "/" inside an id
	// stays inside its segment, then unescape the parameters.
	u := *req.URL
	u.Path, u.RawPath = rest, ""
	rreq := req.Clone(req.Context())
	rreq.URL = &u
	route, params, err := v.router.FindRoute(rreq)
	if err != nil {
		var allowed []string
		for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
			rreq.Method = m
			if r, _, err := v.router.FindRoute(rreq); err == nil && r.PathItem.Extensions["x-auth-host"] == nil {
				allowed = append(allowed, m)
			}
		}
		if len(allowed) > 0 {
			return nil, nil, fmt.Sprintf("no operation: the document publishes no %s for %s (published: %s)", req.Method, rest, strings.Join(allowed, ", "))
		}
		return nil, nil, fmt.Sprintf("no operation in the document matches %s %s", req.Method, rest)
	}
	if _, auth := route.PathItem.Extensions["x-auth-host"]; auth {
		return nil, nil, fmt.Sprintf("no operation: %s is on the token host, not under the API base", tokenPath)
	}
	for name, raw := range params {
		val, err := url.PathUnescape(raw)
		if err != nil {
			return nil, nil, fmt.Sprintf("no operation: malformed path parameter %q: %v", name, err)
		}
		params[name] = val
	}
	return route, params, ""
}

// checkQueryNames reports query parameters the operation does not
// publish (OpenAPI itself lets them through).
func (ex *exchange) checkQueryNames() {
	known := map[string]bool{}
	for _, list := range []openapi3.Parameters{ex.route.PathItem.Parameters, ex.route.Operation.Parameters} {
		for _, p := range list {
			if p.Value != nil && p.Value.In == openapi3.ParameterInQuery {
				known[p.Value.Name] = true
			}
		}
	}
	var unknown []string
	for name := range ex.req.URL.Query() {
		if !known[name] {
			unknown = append(unknown, name)
		}
	}
	slices.Sort(unknown)
	for _, name := range unknown {
		if len(known) == 0 {
			ex.addf("query parameter %q: this operation publishes no query parameters", name)
		} else {
			ex.addf("query parameter %q is not published for this operation", name)
		}
	}
}

// checkResponse validates resp, replacing its body with a reader giving
// the same bytes.
func (v *Validator) checkResponse(ex *exchange, resp *http.Response) {
	if ex.route == nil || ex.input == nil {
		return
	}
	if v.cfg.ignore != nil && v.cfg.ignore(ex.req, resp) {
		return
	}
	ref := ex.route.Operation.Responses.Status(resp.StatusCode)
	if ref == nil || ref.Value == nil {
		ex.addf("reply status %d is not published for this operation (published: %s)", resp.StatusCode, publishedStatuses(ex.route.Operation))
		return
	}
	spec := ref.Value
	ct := resp.Header.Get("Content-Type")

	if len(spec.Content) == 0 {
		if resp.StatusCode >= 300 {
			return // error replies: any body
		}
		buf, _, err := takeBody(&resp.Body, noBodyLimit)
		if err != nil {
			return // a broken reply is the caller's to see, not a finding
		}
		if len(buf) > 0 {
			ex.addf("reply %d must have no body, got %s (Content-Type %q)", resp.StatusCode, sizeText(len(buf), noBodyLimit), ct)
		}
		return
	}

	mt := spec.Content.Get(ct)
	var buf []byte
	if mt == nil || mt.Schema != nil {
		var err error
		if buf, _, err = takeBody(&resp.Body, -1); err != nil {
			return // a broken reply is the caller's to see, not a finding
		}
		if len(buf) == 0 {
			if spec.Extensions["x-body-optional"] != true {
				ex.addf("reply %d has no body; the document publishes a body of type %s", resp.StatusCode, strings.Join(mediaTypes(spec.Content), " or "))
			}
			return
		}
		if isTokenRequest(ex.route) {
			ex.secrets = append(ex.secrets, tokenSecrets(buf)...)
		}
	}
	// else: a body with no schema (a download) is never read.
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: ex.input,
		Status:                 resp.StatusCode,
		Header:                 resp.Header,
		Options:                &v.opts,
	}
	in.SetBodyBytes(buf)
	if err := openapi3filter.ValidateResponse(ex.req.Context(), in); err != nil {
		ex.addErr(err)
	}
}

func mediaTypes(c openapi3.Content) []string {
	var out []string
	for mt := range c {
		out = append(out, mt)
	}
	slices.Sort(out)
	return out
}

func publishedStatuses(op *openapi3.Operation) string {
	var keys []string
	for k := range op.Responses.Map() {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return strings.Join(keys, ", ")
}

func sizeText(n int, limit int) string {
	if n > limit {
		return "more than " + strconv.Itoa(limit) + " bytes"
	}
	return strconv.Itoa(n) + " bytes"
}

// multipartParts returns the part names the operation's multipart body
// publishes, nil when it publishes none.
func multipartParts(r *routers.Route) []string {
	rb := r.Operation.RequestBody
	if rb == nil || rb.Value == nil {
		return nil
	}
	mt := rb.Value.Content.Get("multipart/form-data")
	if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
		return nil
	}
	var names []string
	for name := range mt.Schema.Value.Properties {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

func isTokenRequest(r *routers.Route) bool { return r != nil && r.Path == tokenPath }

func isMultipart(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && strings.HasPrefix(mt, "multipart/")
}

// takeBody reads *rc (up to limit bytes when limit >= 0) and replaces *rc
// by a reader giving the same bytes, then whatever was left unread.
// complete reports whether buf holds the whole body. On a read error *rc
// gives the bytes read, then the error.
func takeBody(rc *io.ReadCloser, limit int64) (buf []byte, complete bool, err error) {
	orig := *rc
	if orig == nil || orig == http.NoBody {
		return nil, true, nil
	}
	r := io.Reader(orig)
	if limit >= 0 {
		r = io.LimitReader(orig, limit+1)
	}
	buf, err = io.ReadAll(r)
	if err != nil {
		*rc = &failingBody{r: bytes.NewReader(buf), err: err, c: orig}
		return buf, false, err
	}
	if limit >= 0 && int64(len(buf)) > limit {
		*rc = &joinedBody{Reader: io.MultiReader(bytes.NewReader(buf), orig), c: orig}
		return buf[:limit], false, nil
	}
	_ = orig.Close()
	*rc = io.NopCloser(bytes.NewReader(buf))
	return buf, true, nil
}

type joinedBody struct {
	io.Reader
	c io.Closer
}

func (b *joinedBody) Close() error { return b.c.Close() }

type failingBody struct {
	r   *bytes.Reader
	err error
	c   io.Closer
}

func (b *failingBody) Read(p []byte) (int, error) {
	if b.r.Len() > 0 {
		return b.r.Read(p)
	}
	return 0, b.err
}

func (b *failingBody) Close() error { return b.c.Close() }

// checkCredentials is the AuthenticationFunc: it checks that the request
// carries a credential of the scheme the operation requires, without
// judging the credential itself (that is the server's business).
func checkCredentials(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	scheme := strings.ToLower(in.SecurityScheme.Scheme)
	h := in.RequestValidationInput.Request.Header.Values("Authorization")
	if len(h) != 1 {
		return fmt.Errorf("needs one Authorization header with a %s credential, found %d", scheme, len(h))
	}
	got, cred, _ := strings.Cut(h[0], " ")
	cred = strings.TrimSpace(cred)
	if !strings.EqualFold(got, scheme) || cred == "" {
		return fmt.Errorf("the Authorization header must carry a %s credential", scheme)
	}
	if scheme == "basic" {
		raw, err := base64.StdEncoding.DecodeString(cred)
		if err != nil || !bytes.Contains(raw, []byte(":")) {
			return errors.New("the Basic credential must be base64 of id:secret")
		}
	}
	return nil
}

// credentialSecrets returns the secrets of the Authorization header, so
// that no message repeats them.
func credentialSecrets(h http.Header) []string {
	var out []string
	for _, v := range h.Values("Authorization") {
		scheme, cred, ok := strings.Cut(v, " ")
		if !ok {
			out = append(out, v)
			continue
		}
		cred = strings.TrimSpace(cred)
		out = append(out, cred)
		if !strings.EqualFold(scheme, "basic") {
			continue
		}
		if raw, err := base64.StdEncoding.DecodeString(cred); err == nil {
			id, secret, _ := strings.Cut(string(raw), ":")
			out = append(out, id, secret)
			for _, s := range []string{id, secret} {
				if u, err := url.QueryUnescape(s); err == nil {
					out = append(out, u)
				}
			}
		}
	}
	return out
}

func formSecrets(body []byte) []string {
	var m map[string]any
	if json.Unmarshal(body, &m) == nil {
		var out []string
		for _, k := range []string{"client_secret", "client_id"} {
			if v, ok := m[k].(string); ok {
				out = append(out, v)
			}
		}
		return out
	}
	q, err := url.ParseQuery(string(body))
	if err != nil {
		return nil
	}
	return append(q["client_secret"], q["client_id"]...)
}

var accessTokenRE = regexp.MustCompile(`"(?:access_token|refresh_token|id_token)"\s*:\s*"([^"]*)"`)

func tokenSecrets(body []byte) []string {
	var out []string
	for _, m := range accessTokenRE.FindAllSubmatch(body, -1) {
		out = append(out, string(m[1]))
	}
	return out
}

// redact replaces every secret of at least four characters in s.
func redact(s string, secrets []string) string {
	for _, sec := range secrets {
		if len(sec) >= 4 {
			s = strings.ReplaceAll(s, sec, "REDACTED")
		}
	}
	return s
}
