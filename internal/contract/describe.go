package contract

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
)

// describe turns a validation error into one line per finding. Values
// are left out (a schema error names where, not what), so that a body
// holding a secret is not repeated in a test log.
func describe(err error) []string {
	var me openapi3.MultiError
	if errors.As(err, &me) && isMulti(err) {
		var out []string
		for _, e := range me {
			out = append(out, describe(e)...)
		}
		return out
	}
	switch e := err.(type) {
	case *openapi3filter.RequestError:
		prefix := ""
		switch {
		case e.Parameter != nil:
			prefix = fmt.Sprintf("%s parameter %q", e.Parameter.In, e.Parameter.Name)
		case e.RequestBody != nil:
			prefix = "request body"
		}
		return nest(prefix, e.Reason, e.Err)
	case *openapi3filter.ResponseError:
		return nest("reply", e.Reason, e.Err)
	case *openapi3filter.SecurityRequirementsError:
		var out []string
		for _, inner := range e.Errors {
			out = append(out, describe(inner)...)
		}
		return nest("credentials", "", errors.New(strings.Join(out, " | ")))
	case *openapi3.SchemaError:
		return []string{schemaMessage(e)}
	case *openapi3filter.ParseError:
		return []string{parseMessage(e)}
	}
	return []string{err.Error()}
}

func isMulti(err error) bool {
	_, ok := err.(openapi3.MultiError)
	return ok
}

// nest joins prefix, reason and the findings of inner.
func nest(prefix, reason string, inner error) []string {
	head := joinNonEmpty(prefix, reason)
	if inner == nil {
		return []string{head}
	}
	var out []string
	for _, m := range describe(inner) {
		if m == reason {
			m = ""
		}
		out = append(out, joinNonEmpty(head, m))
	}
	return out
}

func joinNonEmpty(parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, ": ")
}

// schemaMessage says where a value breaks the schema and which rule,
// without the value.
func schemaMessage(e *openapi3.SchemaError) string {
	where := "/" + strings.Join(e.JSONPointer(), "/")
	reason := e.Reason
	if reason == "" {
		reason = fmt.Sprintf("breaks the %q rule", e.SchemaField)
	}
	// A format's failure is already in the reason; the branches of a
	// oneOf are not.
	var me openapi3.MultiError
	if e.Origin != nil && errors.As(e.Origin, &me) {
		var subs []string
		for _, s := range me {
			subs = append(subs, describe(s)...)
		}
		if len(subs) > 0 {
			reason += " (" + strings.Join(subs, " | ") + ")"
		}
	}
	return fmt.Sprintf("at %q: %s", where, reason)
}

func parseMessage(e *openapi3filter.ParseError) string {
	var path []string
	for _, p := range e.Path() {
		path = append(path, fmt.Sprint(p))
	}
	msg := joinNonEmpty(e.Reason)
	if e.Cause != nil {
		var inner *openapi3filter.ParseError
		if errors.As(e.Cause, &inner) {
			msg = joinNonEmpty(msg, parseMessage(inner))
		} else {
			msg = joinNonEmpty(msg, e.Cause.Error())
		}
	}
	if msg == "" {
		msg = "cannot be parsed"
	}
	if len(path) > 0 {
		return fmt.Sprintf("at %q: %s", "/"+strings.Join(path, "/"), msg)
	}
	return msg
}

// checkMultipartShape checks what OpenAPI cannot say about an upload's
// multipart body: it is well formed, the "file" part carries a file name,
// and no part comes twice. When complete is false, buf is only the body's
// first bytes, which kin-openapi does not see: then the part names found
// in buf are checked against published here, parts cut off at buf's end
// are not judged, and the body's closing boundary is not checked.
func checkMultipartShape(contentType string, buf []byte, complete bool, published []string) []string {
	_, params, err := mime.ParseMediaType(contentType)
	if err != nil || params["boundary"] == "" {
		return []string{fmt.Sprintf("request body: Content-Type %q has no multipart boundary", contentType)}
	}
	var out []string
	mr := multipart.NewReader(bytes.NewReader(buf), params["boundary"])
	seen := map[string]int{}
	var names []string
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			if complete {
				out = append(out, fmt.Sprintf("request body: malformed multipart body: %v", err))
			}
			break
		}
		name := part.FormName()
		if name == "" {
			out = append(out, "request body: a multipart part has no form name")
		} else {
			if seen[name] == 0 {
				names = append(names, name)
			}
			seen[name]++
		}
		if name == "file" && part.FileName() == "" {
			out = append(out, `request body: the "file" part has no filename in its Content-Disposition`)
		}
		if _, err := io.Copy(io.Discard, part); err != nil {
			if complete {
				out = append(out, fmt.Sprintf("request body: malformed multipart part %q: %v", name, err))
			}
			break
		}
	}
	for _, n := range names {
		if seen[n] > 1 {
			out = append(out, fmt.Sprintf("request body: part %q appears %d times", n, seen[n]))
		}
	}
	if !complete {
		// kin-openapi does not see a body held only in part: check the
		// part names against the document's here.
		for _, n := range names {
			if !slices.Contains(published, n) {
				out = append(out, fmt.Sprintf("request body: part %q is not published", n))
			}
		}
	}
	return out
}
