// Package rsql builds, prints and parses the filter expressions accepted by
// the API's "filter" query parameter.
//
// # Grammar
//
// The API documents this language:
//
//	filter     = or
//	or         = and { "," and }          OR;  AND binds tighter than OR
//	and        = comparison { ";" comparison }
//	comparison = field operator values
//	values     = value { ":" value }      only for list and range operators
//
// Field names may contain inner spaces. The literal null is a value. The
// operators are
//
//	==      equal                    !=      not equal
//	=gt=    greater than             =ge=    greater than or equal
//	=lt=    less than                =le=    less than or equal
//	=bt=    between low:high         =nbt=   not between (alias !bt=)
//	=in=    in list a:b:c            =out=   not in list (alias !in=)
//	=lk=    contains                 !lk=    does not contain
//	=lki=   contains, ignoring case  !lki=   does not contain, ignoring case
//
// The spec documents neither parentheses nor quoting.
//
// Beyond the grammar, an operator takes a number of values: two for =bt=
// and =nbt=, at least one for =in= and =out=, one for the others; and
// only ==, !=, =in= and =out= take null (an ordering, range or contains
// operator compares with a value, and null is none). [CheckComparison]
// holds these rules; Validate, [Parse] and the fake server of package
// workflowtest apply them, the first two reporting a [*RuleError].
//
// # Building and printing
//
// Build expressions with [Field], [And], [Or] and [Raw], then use String or
// MarshalText to obtain the filter text. Mistakes (an empty or reserved field
// name, a nil or unsupported value, In with no values, ...) are carried in
// the returned [Expr] and reported by Validate and MarshalText; String then
// returns "".
//
// Values are formatted as follows: strings as they are; bools as true/false;
// integers in base 10; floats with strconv 'f' formatting and the shortest
// precision that round-trips (never an exponent, so 1e21 prints as
// 1000000000000000000000; NaN and infinities are rejected); every time
// value (time.Time, *time.Time and types embedding time.Time) converted to
// UTC and printed with [TimeLayout] (YYYY-MM-DDTHH:MM:SS.SSSZ); then types
// implementing
// encoding.TextMarshaler, then fmt.Stringer; then named types whose
// underlying kind is a string, bool or number; a [Value] is used as given.
// Use IsNull/NotNull (or Value{Null: true}) for the null literal; a nil
// value is an error.
//
// Because the API has no parentheses, the printer never emits them. An OR
// nested under an AND is distributed into disjunctive normal form: (a,b);c
// prints as a;c,b;c. While doing so it simplifies: nested AND/OR nodes are
// flattened, exact duplicate comparisons and duplicate AND-groups are
// dropped, and OR alternatives that are a single == or =in= comparison on
// the same field are merged into one =in= comparison (unless a value is null
// or contains ':'). If any node would expand to more than 256 comparisons,
// Validate reports an error instead of printing a huge filter.
//
// # The ':' rewrites
//
// ':' separates list and range values, so a list or range value that itself
// contains ':' (for example an ISO 8601 timestamp) is not printed in a list.
// The comparison is rewritten to single-value operators instead:
//
//	x=bt=a:b   ->  x=ge=a;x=le=b
//	x=nbt=a:b  ->  x=lt=a,x=gt=b
//	x=in=a:b   ->  x==a,x==b
//	x=out=a:b  ->  x!=a;x!=b
//
// and the result takes part in the distribution above. A ':' in the value of
// a single-value comparison needs nothing: Due Date=lt=2024-01-01T00:00:00.000Z
// is printed as it is.
//
// # Quoting
//
// Values containing the separators follow the standard RSQL rule (the API's
// documentation names the operators, not the quoting): a value may be
// enclosed in double quotes, inside which \" and \\ are escapes. The printer
// quotes a value that is empty, is the word null in any case (null, NULL,
// Null, ..., so that the string is not taken for the null literal), or
// contains whitespace or any of
//
//	; , " ' ( ) ! = < > ~
//
// Field names are printed as they are (spaces included); names that are
// empty, start or end with whitespace, or contain = ! ; , ( ) " ' are
// rejected.
//
// # Parsing
//
// [Parse] accepts the documented grammar plus what filters written for other
// RSQL tools use: both operator aliases (mapped to the canonical [Operator]
// constants), double- and single-quoted values with backslash escapes,
// parentheses for grouping, the list form x=in=(a,b) (in which ':' is not a
// separator), and whitespace around ; , ( and ). Unquoted values run up to
// the next ; , ( or ) (or ':' in a list) and are trimmed of surrounding
// whitespace; inner spaces are kept. Operator names are matched without
// regard to case, and so is the null literal (null, NULL, Null: the
// printer quotes such strings). Parse keeps the tree
// as written (no normal form) and returns *[Comparison], *[AndExpr] and
// *[OrExpr] nodes, flattening directly nested nodes of the same kind. Errors
// are *[ParseError] values carrying the byte offset; their text says what
// was expected there and the kind of what was found, never the filter's
// text, whose values are users' data. For a comparison that breaks a rule
// of [CheckComparison] its Rule is the *[RuleError].
package rsql
