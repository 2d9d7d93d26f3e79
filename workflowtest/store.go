package workflowtest

import (
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

// fieldSet is a record's fields, held compactly, so that the fake holds
// millions of records: a map of 12 fields costs about three times as much.
// names are the field names, sorted, shared by every record of the
// definition with the same names (see definition.shape); data holds the
// end of each value in what follows (4 bytes each, big-endian), then the
// values one after the other. A fieldSet is never modified: an update
// stores a new one, so one handed to a response encoder after the lock is
// released stays consistent.
type fieldSet struct {
	names *[]string // nil: no fields
	data  string
}

const endSize = 4

// newFieldSet stores f's fields with the names of the definition's shape.
func (d *definition) newFieldSet(f map[string]string) fieldSet {
	if len(f) == 0 {
		return fieldSet{}
	}
	names := slices.Sorted(maps.Keys(f))
	shape := d.shape(names)
	vals := make([]string, len(names))
	for i, n := range names {
		vals[i] = f[n]
	}
	return packFields(shape, vals)
}

// packFields stores vals, the values of *names in order.
func packFields(names *[]string, vals []string) fieldSet {
	size := endSize * len(vals)
	for _, v := range vals {
		size += len(v)
	}
	var b strings.Builder
	b.Grow(size)
	var end [endSize]byte
	n := uint32(0)
	for _, v := range vals {
		n += uint32(len(v))
		binary.BigEndian.PutUint32(end[:], n)
		b.Write(end[:])
	}
	for _, v := range vals {
		b.WriteString(v)
	}
	return fieldSet{names: names, data: b.String()}
}

// shape returns the definition's shared copy of names (sorted).
func (d *definition) shape(names []string) *[]string {
	key := strings.Join(names, "\x00")
	if s, ok := d.shapes[key]; ok {
		return s
	}
	if d.shapes == nil {
		d.shapes = map[string]*[]string{}
	}
	s := &names
	d.shapes[key] = s
	return s
}

func (f fieldSet) len() int {
	if f.names == nil {
		return 0
	}
	return len(*f.names)
}

// value returns the value of the i-th name.
func (f fieldSet) value(i int) string {
	base := endSize * f.len()
	start := 0
	if i > 0 {
		start = f.end(i - 1)
	}
	return f.data[base+start : base+f.end(i)]
}

// end is where the i-th value ends, after the ends.
func (f fieldSet) end(i int) int {
	return int(binary.BigEndian.Uint32([]byte(f.data[endSize*i : endSize*(i+1)])))
}

// get returns the value of the field name, and whether the record has it.
func (f fieldSet) get(name string) (string, bool) {
	if f.names == nil {
		return "", false
	}
	i, ok := slices.BinarySearch(*f.names, name)
	if !ok {
		return "", false
	}
	return f.value(i), true
}

// record returns the fields as a new map.
func (f fieldSet) record() workflow.Record {
	m := make(workflow.Record, f.len())
	f.fill(m)
	return m
}

// fill sets m to the fields (a map reused for many records).
func (f fieldSet) fill(m map[string]string) {
	clear(m)
	for i := range f.len() {
		m[(*f.names)[i]] = f.value(i)
	}
}

// MarshalJSON writes the fields as the JSON object of a record, its
// members sorted by name, as a map's would be.
func (f fieldSet) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 2+len(f.data)+16*f.len())
	b = append(b, '{')
	for i := range f.len() {
		if i > 0 {
			b = append(b, ',')
		}
		// Invalid UTF-8 is replaced (and reported, ignored here), as a
		// map's encoding does.
		b, _ = jsontext.AppendQuote(b, (*f.names)[i])
		b = append(b, ':')
		b, _ = jsontext.AppendQuote(b, f.value(i))
	}
	return append(b, '}'), nil
}

// matchIndex is where the records of a definition that one filter matches
// are: their positions in the definition's records, ascending, for the
// records up to upTo. A walk of a filtered list then costs, per page, a
// binary search and the page's records, not a scan of the definition;
// the total is the number of positions.
type matchIndex struct {
	version uint64 // the definition's version it was built at
	upTo    int
	pos     []int32
}

// maxIndexes bounds the filters whose matches a definition keeps.
const maxIndexes = 32

// matches returns the positions of the records that p's filter matches,
// from the index of the filter, built or brought up to date as needed:
// records added since it was built are tested (they come last, in seq
// order), and a change of any record's fields (the definition's version)
// makes it start over. The caller holds the server's lock, for reading at
// least; the index has a lock of its own, as several readers may list at
// once.
func (d *definition) matches(p *paging) []int32 {
	d.indexMu.Lock()
	defer d.indexMu.Unlock()
	ix := d.indexes[p.key]
	if ix == nil || ix.version != d.version {
		if d.indexes == nil || len(d.indexes) >= maxIndexes {
			d.indexes = map[uint64]*matchIndex{}
		}
		ix = &matchIndex{version: d.version}
		d.indexes[p.key] = ix
	}
	if ix.upTo < len(d.records) {
		scratch := make(map[string]string, 16)
		for i, r := range d.records[ix.upTo:] {
			r.fields.fill(scratch)
			if p.match(scratch) {
				ix.pos = append(ix.pos, int32(ix.upTo+i))
			}
		}
		ix.upTo = len(d.records)
	}
	return ix.pos
}

// changed records that a record's fields changed: the filters' indexes
// start over.
func (d *definition) changed() { d.version++ }

// definitionIndex is the part of a definition that keeps its filters'
// matches and the shapes of its records.
type definitionIndex struct {
	shapes  map[string]*[]string // field names, joined by NUL, to the shared sorted copy
	version uint64               // counts the changes of records' fields
	indexMu sync.Mutex
	indexes map[uint64]*matchIndex // by paging.key (the list and its filter)
}

// selectRecords picks the page p points at from the definition's records,
// as selectPage does, through the filter's index: in time proportional to
// the page, once the index is built.
func (d *definition) selectRecords(p *paging) pageResult[*record] {
	if p.match == nil {
		return selectPage(d.records, recordSeq, nil, p)
	}
	pos := d.matches(p)
	return pageOf(len(pos), func(k int) *record { return d.records[pos[k]] }, recordSeq, p)
}

// GeneratedFields are the fields of the records SeedGenerated stores,
// besides their id: twelve in all, as a wide definition's records have.
var GeneratedFields = []string{"Amount", "Category", "Due Date", "Owner", "Priority", "Ref", "Region", "Source", "Status", "Team", "Title"}

// SeedGenerated stores n generated records in (rt, alias), as Seed would,
// creating the definition if needed: a test (or cmd/workflow-fake) at the
// scale of millions of records, without building them. Record k (counted
// from 1 over the definition's records, so the same calls give the same
// records) has the id the server's sequence gives it and the fields of
// GeneratedFields: Title "Record k", Status one of Open, In Progress,
// Waiting and Done in turn, Priority 1 to 5 in turn, Owner one of 50
// addresses, Team one of 7, Due Date an hour after the previous record's
// from 2026-01-01, Amount a decimal number, Region one of 5, Source
// "generated", Category one of 6, Ref "REF-" and k in 8 digits. It
// panics if rt is not a record type or alias is empty.
func (s *Server) SeedGenerated(rt workflow.RecordType, alias string, n int) {
	mustType(rt)
	if alias == "" {
		panic("workflowtest: SeedGenerated: empty alias")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.st
	d := st.define(defKey{rt, alias})
	// GeneratedFields are sorted and IDField sorts after them: the names
	// of the shape are in that order, and so are the values below.
	shape := d.shape(append(slices.Clone(GeneratedFields), IDField))
	statuses := []string{"Open", "In Progress", "Waiting", "Done"}
	teams := []string{"ops", "sales", "support", "finance", "legal", "it", "hr"}
	regions := []string{"eu", "us", "apac", "latam", "mea"}
	categories := []string{"hardware", "software", "access", "billing", "travel", "other"}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	d.records = slices.Grow(d.records, n)
	if len(d.byID) < n { // grown once, not by doubling
		byID := make(map[string]*record, len(d.byID)+n)
		maps.Copy(byID, d.byID)
		d.byID = byID
	}
	var vals []string
	for range n {
		k := len(d.records) + 1
		vals = append(vals[:0],
			strconv.Itoa(k%10_000)+"."+strconv.Itoa(10+k%90), // Amount
			categories[k%len(categories)],
			formatTime(base.Add(time.Duration(k)*time.Hour)), // Due Date
			"owner-"+strconv.Itoa(k%50)+"@example.com",
			strconv.Itoa(k%5+1), // Priority
			fmt.Sprintf("REF-%08d", k),
			regions[k%len(regions)],
			"generated", // Source
			statuses[k%len(statuses)],
			teams[k%len(teams)],
			"Record "+strconv.Itoa(k), // Title
			st.nextID(d),
		)
		rec := &record{seq: st.next.nextSeq(), def: d, fields: packFields(shape, vals)}
		rec.id, _ = rec.fields.get(IDField)
		d.records = append(d.records, rec)
		d.byID[rec.id] = rec
	}
}
