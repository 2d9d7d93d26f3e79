// Package benchcmp compares the SDK's listing with hand-written loops on
// other JSON libraries (github.com/bytedance/sonic, github.com/goccy/go-json)
// as well as encoding/json, in one benchmark run. It is a module of its
// own so that the SDK's go.mod holds none of them. It has no code: see its
// tests, and BENCHMARKS.md at the root of the repository for the results.
package benchcmp
