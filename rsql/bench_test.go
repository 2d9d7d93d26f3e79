package rsql

import (
	"strconv"
	"testing"
	"time"
)

// The filter of BenchmarkFilter20 in the root package: 20 comparisons
// under one AND, half of them with quoted values.
func benchFilter20() Expr {
	var es []Expr
	for i := range 10 {
		es = append(es,
			Field("Field "+strconv.Itoa(i)).Eq("value "+strconv.Itoa(i)),
			Field("n"+strconv.Itoa(i)).Between(i, i+10))
	}
	return And(es...)
}

// benchDNF20 has an OR under an AND, distributed into 4 groups of 5
// comparisons.
func benchDNF20() Expr {
	return And(
		Or(Field("Status").Eq("open"), Field("Status").Eq("pending"), Field("Escalated").Eq(true), Field("Owner").IsNull()),
		Field("Priority").Gt(2),
		Field("Due Date").Lt("2024-01-01T00:00:00.000Z"),
		Field("Title").ILike("quarterly report"),
		Field("Amount").Between(100, 2500),
	)
}

var sink string

func BenchmarkBuildAndPrint20(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sink = benchFilter20().String()
	}
}

func BenchmarkPrint20(b *testing.B) {
	e := benchFilter20()
	b.ReportAllocs()
	for b.Loop() {
		sink = e.String()
	}
}

func BenchmarkPrintDNF20(b *testing.B) {
	e := benchDNF20()
	b.ReportAllocs()
	for b.Loop() {
		sink = e.String()
	}
}

func BenchmarkParse20(b *testing.B) {
	s := benchFilter20().String()
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseAndPrint20(b *testing.B) {
	s := benchFilter20().String()
	b.ReportAllocs()
	for b.Loop() {
		e, err := Parse(s)
		if err != nil {
			b.Fatal(err)
		}
		sink = e.String()
	}
}

func BenchmarkParseQuotedEscapes(b *testing.B) {
	s := `Title=="say \"hi\"";Path=='C:\\dir\\file';Name=lki="o'brien";x=in=("a b",'c,d',e)`
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(s); err != nil {
			b.Fatal(err)
		}
	}
}

// benchPage is a filter as a program sends it with a list request: a
// few comparisons under one AND, one of them on a time.
func benchPage() Expr {
	return And(
		Field("Status").In("Open", "In Progress"),
		Field("Priority").Ge(3),
		Field("Due Date").Lt(time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)),
		Field("Assignee").ILike("user7"),
	)
}

func BenchmarkPrintPage(b *testing.B) {
	e := benchPage()
	b.ReportAllocs()
	for b.Loop() {
		sink = e.String()
	}
}

func BenchmarkBuildAndPrintPage(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sink = benchPage().String()
	}
}
