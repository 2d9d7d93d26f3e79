package workflowtest

import "fmt"

// WithIDSpace gives the UUIDs the server mints a space of their own, so
// that two servers made with different spaces hand out different ids: an
// id copied from one into a request to the other names nothing there (a
// 404), as between two workspaces of the service. A configuration meant
// to promote from one workspace to another can so be tested with two
// fakes: one that copies ids instead of referring to objects fails.
//
// The space is written in the seven hex digits after the kind's digit:
// space 0x2a makes the first automation
// "4000002a-0000-4000-8000-000000000001" instead of
// "40000000-0000-4000-8000-000000000001". Space 0, the default, is the
// ids the documentation and the tests rely on. The default user keeps
// DefaultUserID in every space; the ids of records ("1", "2", ...),
// attachments and tokens are not UUIDs and do not change. A space of
// 2^28 or more does not fit and panics. cmd/workflow-fake sets it with
// -id-space.
func WithIDSpace(space uint32) Option {
	if space >= 1<<28 {
		panic(fmt.Sprintf("workflowtest: WithIDSpace(%d): a space is below 2^28 (seven hex digits)", space))
	}
	return func(c *config) { c.idSpace = space }
}

// spacedUUID returns seqUUID(kind, n) in space: the seven digits after
// the kind's digit hold it.
func spacedUUID(space uint32, kind byte, n uint64) string {
	return fmt.Sprintf("%c%07x-0000-4000-8000-%012x", kind, space, n)
}
