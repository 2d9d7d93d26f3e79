package listbench

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// Page encodes a page of n records of the given number of fields, with
// ids from first, the way the service sends a list page: ASCII names and
// values without escapes, the same names in the same order in every
// record.
func Page(first, n, fields int, more bool) []byte {
	return page(first, n, more, func(b *bytes.Buffer, id int) {
		fmt.Fprintf(b, `"id":"%d"`, id)
		for f := 1; f < fields; f++ {
			fmt.Fprintf(b, `,"%s":"%s"`, fieldNames[f%len(fieldNames)], fieldValue(f, id))
		}
	})
}

// page encodes a page of n records with ids from first, each record's
// members written by record.
func page(first, n int, more bool, record func(b *bytes.Buffer, id int)) []byte {
	var b bytes.Buffer
	b.WriteString(`{"items":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		id := first + i
		b.WriteString(`{"data":{`)
		record(&b, id)
		fmt.Fprintf(&b, `},"cursor":"%s"}`, Cursor(id))
	}
	fmt.Fprintf(&b, `],"total":%d,"paging":{"has_next_page":%t,"has_previous_page":%t,"start_cursor":"%s","end_cursor":"%s"}}`,
		first+n, more, first > 0, Cursor(first), Cursor(first+n-1))
	return b.Bytes()
}

var fieldNames = []string{
	"id", "title", "status", "priority", "assignee", "requester", "department",
	"createdAt", "updatedAt", "dueDate", "category", "description",
}

func fieldValue(f, id int) string {
	switch fieldNames[f%len(fieldNames)] {
	case "createdAt", "updatedAt", "dueDate":
		return fmt.Sprintf("2024-%02d-%02dT10:%02d:00.000Z", 1+id%12, 1+id%28, id%60)
	case "status":
		return [...]string{"open", "in progress", "done"}[id%3]
	case "description":
		return fmt.Sprintf("Request number %d: replace the laptop charger on floor %d", id, id%9)
	}
	return fmt.Sprintf("%s-%d", fieldNames[f%len(fieldNames)], id)
}

// Cursor is the cursor of the record with the given id.
func Cursor(id int) string { return fmt.Sprintf("Y3Vyc29yOnYyOpK5MjAyNC0w%08d", id) }

// MixedPage encodes a page of n records of 12 fields that are harder to
// read than Page's: names drawn from 300 (some not ASCII, some escaped),
// in an order that changes from record to record, and values with
// escapes, text that is not ASCII, empty strings, nulls and long values
// (one of 4 KB in a record of every 50).
func MixedPage(first, n int, more bool) []byte {
	return page(first, n, more, func(b *bytes.Buffer, id int) {
		fmt.Fprintf(b, `"id":"%d"`, id)
		for f := 1; f < 12; f++ {
			name := mixedName((id*7 + f*f*13) % 300)
			fmt.Fprintf(b, `,"%s_%d":%s`, name, f, mixedValue(id, f))
		}
	})
}

// mixedName is the name of field k of MixedPage's 300, as JSON text.
func mixedName(k int) string {
	switch k % 10 {
	case 3:
		return "Größe " + strconv.Itoa(k)
	case 6:
		return `caf\u00e9 ` + strconv.Itoa(k) // café
	case 8:
		return `quoted \"` + strconv.Itoa(k) + `\"`
	}
	return "field " + strconv.Itoa(k)
}

// mixedValue is the value of field f of record id in MixedPage, as JSON
// text.
func mixedValue(id, f int) string {
	switch (id + f) % 9 {
	case 0:
		return `""`
	case 1:
		return `"line one\nline two\t\"quoted\" \\ back\/slash"`
	case 2:
		return `"日本語のテキスト ` + strconv.Itoa(id) + ` — naïve façade"`
	case 3:
		return `"\u00e9t\u00e9 \ud83d\ude00 ` + strconv.Itoa(id) + `"`
	case 4:
		return "null"
	case 5:
		if id%50 == 0 {
			return `"` + strings.Repeat("a long value of text, ", 186) + `"`
		}
	}
	return `"value ` + strconv.Itoa(f) + ` of record ` + strconv.Itoa(id) + `"`
}
