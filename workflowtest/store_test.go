package workflowtest

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/rsql"
)

// A record's compact fields give back what was stored, absent and empty
// kept apart, and encode as the map would.
func TestFieldSet(t *testing.T) {
	d := &definition{}
	for _, f := range []workflow.Record{
		{},
		{"id": "1"},
		{"id": "2", "Title": "a <b> & \"c\"\n", "Empty": "", "Ünïcode": "é\u2028"},
		wideRecord(7),
	} {
		fs := d.newFieldSet(f)
		assert.Equal(t, len(f), fs.len())
		if len(f) == 0 {
			assert.Equal(t, workflow.Record{}, fs.record())
		} else {
			assert.Equal(t, f, fs.record())
		}
		for k, v := range f {
			got, ok := fs.get(k)
			assert.True(t, ok, k)
			assert.Equal(t, v, got, k)
		}
		_, ok := fs.get("absent")
		assert.False(t, ok)
		b, err := json.Marshal(fs)
		require.NoError(t, err)
		var back map[string]string
		require.NoError(t, json.Unmarshal(b, &back))
		if len(f) > 0 {
			assert.Equal(t, map[string]string(f), back)
		}
	}
	a, b := d.newFieldSet(wideRecord(1)), d.newFieldSet(wideRecord(2))
	assert.Same(t, a.names, b.names, "records of one shape share their names")
}

// The filter's index gives the page, total and paging a scan of the
// definition gives, whatever the filter, cursor and direction, as records
// are added and changed.
func TestSelectRecordsMatchesAScan(t *testing.T) {
	srv := NewServer()
	defer srv.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	filters := []string{"Status==Open", "Priority=ge=4", "Status==Open,Owner==owner-3", "Status==Nope", "Amount=lt=50"}
	st := srv.st
	d := st.define(defKey{workflow.Tasks, "t"})
	add := func(n int) {
		for range n {
			_, err := st.insert(d, wideRecord(rng.IntN(100)), "")
			require.NoError(t, err)
		}
	}
	add(150)
	for round := range 60 {
		switch round % 4 {
		case 1:
			add(rng.IntN(20))
		case 2:
			r := d.records[rng.IntN(len(d.records))]
			f := r.fields.record()
			f["Status"] = []string{"Open", "Done"}[rng.IntN(2)]
			r.fields = d.newFieldSet(f)
			d.changed()
		}
		text := filters[rng.IntN(len(filters))]
		e, err := rsql.Parse(text)
		require.NoError(t, err)
		m, err := compile(e)
		require.NoError(t, err)
		p := &paging{n: 1 + rng.IntN(30), backward: rng.IntN(2) == 0, key: listKey("t", e), match: m}
		if rng.IntN(3) > 0 {
			p.cursor, p.hasCursor = d.records[rng.IntN(len(d.records))].seq+uint64(rng.IntN(2)), true
		}
		want := selectPage(d.records, recordSeq, func(r *record) map[string]string { return r.fields.record() }, p)
		got := d.selectRecords(p)
		name := text + " round " + strconv.Itoa(round)
		assert.Equal(t, want.total, got.total, name)
		assert.Equal(t, want.hasPrev, got.hasPrev, name)
		assert.Equal(t, want.hasNext, got.hasNext, name)
		assert.Equal(t, len(want.items), len(got.items), name)
		for i := range min(len(want.items), len(got.items)) {
			assert.Same(t, want.items[i], got.items[i], name)
		}
	}
}
