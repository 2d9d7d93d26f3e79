package workflow

import "fmt"

// resourceResult is implemented by result types whose successful answer
// must hold a resource: the record of Records.Get, Create and Update, the
// object of a required replyBody (Users.Get, Groups.Get, Attachments.Get,
// ...), the array of Attachments.List. Client.do checks it after
// decoding, so observers see the failure too: a 2xx whose body is null, {}
// or empty there is an error matching ErrUnexpectedResponse, never a nil
// result with a nil error.
type resourceResult interface {
	// resourcePresent reports whether the decoded answer held the
	// resource (a record with fields, an object with an id).
	resourcePresent() bool
	// resourceName names the resource for the error, e.g. "record".
	resourceName() string
}

// missingResource is the error for a 2xx answer without its resource:
// it matches ErrUnexpectedResponse, and the caller wraps it with the
// request (Client.wrap).
func missingResource(status int, what string) error {
	return fmt.Errorf("%w: status %d without a %s (an empty or null body, or an object without its id)", errMalformedReply, status, what)
}

func (b *recordBody) resourcePresent() bool { return len(b.rec) > 0 }
func (b *recordBody) resourceName() string  { return "record" }

// identified is a model that names itself by an id: an answer of such a
// model without one holds no resource.
type identified interface{ resourceID() string }

func (u *User) resourceID() string       { return u.ID }
func (g *Group) resourceID() string      { return g.ID }
func (a *Attachment) resourceID() string { return a.ID }

// identifies reports whether v, a decoded answer, names its resource: true
// for models without an id.
func identifies(v any) bool {
	if m, ok := v.(identified); ok {
		return m.resourceID() != ""
	}
	return true
}
