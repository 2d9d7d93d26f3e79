package workflowtest

import (
	"strconv"
)

// The ids the fake hands out: every kind in one place.

// counters hand out ids and sequence numbers; they restart with Reset so
// that ids are deterministic.
type counters struct {
	seq        uint64 // positions in lists (records, members, related items, watchers, comments)
	record     uint64
	user       uint64
	group      uint64
	domain     uint64
	attachment uint64
	comment    uint64
	token      uint64
	// space is the UUIDs' space (WithIDSpace); newState sets it once the
	// default user has its id.
	space uint32
}

func (c *counters) nextSeq() uint64 { c.seq++; return c.seq }

func (c *counters) id(prefix string, n *uint64) string {
	*n++
	return prefix + strconv.FormatUint(*n, 10)
}

// uuid counts n up and returns the UUID of that count for kind (see
// seqUUID): users, groups and domains have UUIDs, as the service
// publishes.
func (c *counters) uuid(kind byte, n *uint64) string {
	*n++
	return c.seqUUID(kind, *n)
}

// seqUUID returns the UUID of count n for kind in the server's space.
func (c *counters) seqUUID(kind byte, n uint64) string {
	return spacedUUID(c.space, kind, n)
}

// seqUUID returns a fixed-form UUID (version 4 layout) whose first hex
// digit names the kind of object and whose last twelve count them, so ids
// are deterministic and recognisable: seqUUID('c', 1) is
// "c0000000-0000-4000-8000-000000000001". It is the id of space 0; a
// server's counters mint them in its own space (WithIDSpace, idspace.go).
func seqUUID(kind byte, n uint64) string {
	return spacedUUID(0, kind, n)
}

// The kinds of seqUUID, one hex digit each ('9' is free). Records have
// the ids of counters.record ("1", "2", ...), attachments "a1", "a2", ...
const (
	uuidUser         = '0' // users: DefaultUserID is the first
	uuidGroup        = '1' // groups
	uuidOrgDomain    = '2' // organisation domains (admin_domains.go)
	uuidSkill        = '3' // skills (admin_skills.go)
	uuidAutomation   = '4' // automations (admin_automations.go)
	uuidView         = '5' // views (admin_views.go)
	uuidAgent        = '6' // agents (admin_agents.go)
	uuidTables       = '7' // tables, their fields, joins and join pairs (admin_tables.go)
	uuidSearchTables = '8' // search tables (admin_search_tables.go)
	uuidWatch        = 'a' // watches (a watcher's own id)
	uuidApp          = 'b' // composed apps (admin_apps.go)
	uuidComment      = 'c' // comments
	uuidDomain       = 'd' // the domains of dynamic groups
	uuidElement      = 'e' // elements (admin_elements.go)
	uuidFlow         = 'f' // flows (admin_flows.go)
)
