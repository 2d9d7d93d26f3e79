package workflowtest

import (
	"fmt"
	"os"

	"github.com/seed-a15e58aa/workflow-go/internal/wire/shape"
)

// Replies is what the server's success replies hold.
type Replies int

const (
	// Documented replies hold only the members the response schema of
	// their operation names in the service's published document, at any
	// depth (objects the document leaves free-form, such as Passthrough
	// ones, whole): what the service promises back, and so all a client
	// may depend on reading. It is the default, so that code tested
	// against the fake works against the service.
	Documented Replies = iota
	// Generous replies also hold what the server keeps beside the
	// document's members, as the service may: a table's categoryId,
	// description, icon and color, a skill's discoveryProperties, and the
	// like. A test that reads such a member needs it, and should say why.
	Generous
)

// RepliesEnv is the environment variable that sets the reply mode of a
// server made without WithReplies: "documented" or "generous". It lets a
// whole test suite run in either mode (CI runs some in both).
const RepliesEnv = "WORKFLOWTEST_REPLIES"

// WithReplies sets what the server's success replies hold (Documented by
// default, or as RepliesEnv says).
func WithReplies(r Replies) Option {
	return func(c *config) { c.replies = &r }
}

// String returns "documented" or "generous".
func (r Replies) String() string {
	if r == Generous {
		return "generous"
	}
	return "documented"
}

// repliesOf returns the mode the option set, or else the one RepliesEnv
// names; a value of RepliesEnv that names none panics, naming it.
func repliesOf(set *Replies) Replies {
	if set != nil {
		return *set
	}
	switch v := os.Getenv(RepliesEnv); v {
	case "", "documented":
		return Documented
	case "generous":
		return Generous
	default:
		panic(fmt.Sprintf("workflowtest: %s is %q; it must be \"documented\" or \"generous\"", RepliesEnv, v))
	}
}

// promised returns body, the JSON success reply of rq's operation, as
// the server's reply mode has it.
func (s *Server) promised(rq *request, body []byte) []byte {
	if s.replies != Documented || rq.op == "" || !isSuccess(rq.log.Status) {
		return body
	}
	out, err := shape.Promised(rq.op, body)
	if err != nil {
		return body // not JSON: sent as it is, for the client to refuse
	}
	return out
}

func isSuccess(status int) bool { return status >= 200 && status < 300 }
