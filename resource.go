package workflow

import "fmt"

// resourceResult is implemented by result types whose successful answer
// must hold a resource (Records.Get, Create and Update, Users.Get,
// Groups.Get, Attachments.Get). Client.do checks it after decoding: a 2xx
// whose body is null, {} or empty there is an error matching
// ErrUnexpectedResponse, never a nil result with a nil error.
type resourceResult interface {
	// resourcePresent reports whether the decoded answer held the
	// resource (a record with fields, an object with an id).
	resourcePresent() bool
	// resourceName names the resource for the error, e.g. "record".
	resourceName() string
}

// missingResource is the error for a 2xx answer without its resource.
func missingResource(status int, rr resourceResult) error {
	return fmt.Errorf("%w: status %d without a %s (the body is empty, null or has no id)", ErrUnexpectedResponse, status, rr.resourceName())
}

func (b *recordBody) resourcePresent() bool { return len(b.rec) > 0 }
func (b *recordBody) resourceName() string  { return "record" }

// userResource is the answer of Users.Get.
type userResource struct{ userBody }

func (b *userResource) resourcePresent() bool { return b.user != nil && b.user.ID != "" }
func (b *userResource) resourceName() string  { return "user" }

func (b *groupBody) resourcePresent() bool { return b.group != nil && b.group.ID != "" }
func (b *groupBody) resourceName() string  { return "group" }

// attachmentResource is the answer of Attachments.Get.
type attachmentResource struct{ oneBody[Attachment] }

func (b *attachmentResource) resourcePresent() bool { return b.v.ID != "" }
func (b *attachmentResource) resourceName() string  { return "attachment" }
