package main

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// The files of an export: DIR/automations/NAME.json and DIR/views/NAME.json.

// folders are the folders of an export, by kind.
var folders = map[kind]string{automationKind: "automations", viewKind: "views"}

// maxBase is the longest a file name's base (before any suffix and
// ".json") may be, in bytes.
const maxBase = 64

// baseName is the file name an object's key gives, before collisions are
// resolved: the key in lower case, each run of characters other than a to
// z and 0 to 9 made one "-", with no "-" at either end, cut to maxBase
// bytes; "unnamed" when nothing is left.
func baseName(key string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(key) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
	}
	s := strings.TrimRight(b.String()[:min(b.Len(), maxBase)], "-")
	if s == "" {
		return "unnamed"
	}
	return s
}

// reserved are the names Windows keeps for devices, whatever the
// extension.
var reserved = strings.Fields("con prn aux nul com1 com2 com3 com4 com5 com6 com7 com8 com9 lpt1 lpt2 lpt3 lpt4 lpt5 lpt6 lpt7 lpt8 lpt9")

// fileNames names the files of objs, objects of one kind: baseName of the
// key, plus ".json". Where several objects' keys give one base name (keys
// that differ only in case or punctuation), or the base is a device name
// of Windows, each of those files is named base~HASH.json, HASH being the
// first 8 hex digits of the SHA-256 of the key: a name that depends on its
// own key only, and "~" is never in a base name. Objects with the same key
// (duplicates, which a plan reports) are told apart by ~2, ~3, ... after
// that, in the order of their content's bytes.
func fileNames(objs []*object) map[*object]string {
	byBase := map[string][]*object{}
	for _, o := range objs {
		b := baseName(o.key)
		byBase[b] = append(byBase[b], o)
	}
	names := map[*object]string{}
	for base, group := range byBase {
		if len(group) == 1 && !slices.Contains(reserved, base) {
			names[group[0]] = base + ".json"
			continue
		}
		slices.SortFunc(group, func(a, b *object) int {
			return cmp.Or(strings.Compare(a.key, b.key), bytes.Compare(a.form, b.form))
		})
		for i, o := range group {
			sum := sha256.Sum256([]byte(o.key))
			name := base + "~" + hex.EncodeToString(sum[:4])
			if n := i - slices.IndexFunc(group, func(x *object) bool { return x.key == o.key }); n > 0 {
				name += "~" + strconv.Itoa(n+1)
			}
			names[o] = name + ".json"
		}
	}
	return names
}

// export writes the objects of each kind to dir, one file per object, and
// removes the other .json files of its automations and views folders
// (objects gone since the last export), so that dir holds the export and
// nothing else there. It returns how many files it wrote.
func export(dir string, objs map[kind][]*object) (int, error) {
	n := 0
	for _, k := range []kind{automationKind, viewKind} {
		folder := filepath.Join(dir, folders[k])
		if err := os.MkdirAll(folder, 0o755); err != nil {
			return n, err
		}
		names := fileNames(objs[k])
		written := map[string]bool{}
		for o, name := range names {
			written[name] = true
			if err := os.WriteFile(filepath.Join(folder, name), indented(o.form), 0o644); err != nil {
				return n, err
			}
			n++
		}
		old, err := filepath.Glob(filepath.Join(folder, "*.json"))
		if err != nil {
			return n, err
		}
		for _, f := range old {
			if !written[filepath.Base(f)] {
				if err := os.Remove(f); err != nil {
					return n, err
				}
			}
		}
	}
	return n, nil
}

// readDir reads the objects of an export: every .json file of dir's
// automations and views folders, in the order of their names. A folder
// that is not there holds no object.
func readDir(dir string) (map[kind][]*object, error) {
	objs := map[kind][]*object{}
	if fi, err := os.Stat(dir); err != nil {
		return nil, err
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	for _, k := range []kind{automationKind, viewKind} {
		files, err := filepath.Glob(filepath.Join(dir, folders[k], "*.json"))
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			rel := filepath.ToSlash(filepath.Join(folders[k], filepath.Base(f)))
			o, err := newObject(k, b)
			if err == nil {
				if _, ok := members(o.form)["id"]; ok {
					err = errors.New(`an "id" member: the files hold the write form, which has no ids`)
				}
			}
			if err != nil {
				return nil, fmt.Errorf("%s: %w", rel, err)
			}
			o.file = rel
			objs[k] = append(objs[k], o)
		}
	}
	return objs, nil
}
