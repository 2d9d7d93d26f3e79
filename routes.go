package workflow

import (
	"net/http"
	"strings"
)

// Route templates of the API, as spec/API.md names them, relative to the
// base URL. They are what logs, spans and metrics show instead of a path:
// a template holds no alias, id or query, and has few distinct values.
const (
	routeUsers          = "/users"
	routeUser           = "/users/{userId}"
	routeUserDeactivate = "/users/{userId}/deactivate"
	routeGroups         = "/groups"
	routeGroup          = "/groups/{groupId}"
	routeGroupUsers     = "/groups/{groupId}/users"
	routeRecords        = "/{recordType}/{alias}"
	routeRecord         = "/{recordType}/{alias}/{id}"
	routeToken          = "/oauth/token"
)

// recordSubroutes are the literal words after /{recordType}/{alias}/{id}.
var recordSubroutes = map[string]string{
	"related-items": routeRecord + "/related-items",
	"attachments":   routeRecord + "/attachments",
	"watchers":      routeRecord + "/watchers",
	"comment":       routeRecord + "/comment",
}

// routeOf returns the route template of a request to the API whose base
// path (escaped, ending in "/") is basePath, or "" when the path is not a
// route of the API (a request built by the caller for another path). It
// is the one place where paths become templates.
func routeOf(basePath string, req *http.Request) string {
	rel, ok := strings.CutPrefix(req.URL.EscapedPath(), basePath)
	if !ok {
		return ""
	}
	return routeTemplate(req.Method, rel)
}

// routeTemplate maps an escaped path relative to the base URL (such as
// "tasks/it-requests/42/watchers") to its template.
func routeTemplate(method, rel string) string {
	rel = strings.TrimSuffix(rel, "/")
	if rel == "" {
		return ""
	}
	segs := strings.Split(rel, "/")
	for _, s := range segs {
		if s == "" {
			return ""
		}
	}
	switch segs[0] {
	case "users":
		switch {
		case len(segs) == 1:
			return routeUsers
		case len(segs) == 2:
			return routeUser
		case len(segs) == 3 && segs[2] == "deactivate":
			return routeUserDeactivate
		}
		return ""
	case "groups":
		switch {
		case len(segs) == 1:
			return routeGroups
		case len(segs) == 2:
			return routeGroup
		case len(segs) == 3 && segs[2] == "users":
			return routeGroupUsers
		}
		return ""
	}
	if !RecordType(segs[0]).Valid() {
		return ""
	}
	switch len(segs) {
	case 2:
		return routeRecords
	case 3:
		return routeRecord
	case 4:
		return recordSubroutes[segs[3]]
	case 5:
		switch segs[3] {
		case "related-items":
			return routeRecord + "/related-items/{relationId}"
		case "attachments":
			if segs[4] == "url-links" && method == http.MethodPost {
				return routeRecord + "/attachments/url-links"
			}
			return routeRecord + "/attachments/{attachmentId}"
		}
	case 6:
		if segs[3] == "attachments" && segs[5] == "content" {
			return routeRecord + "/attachments/{attachmentId}/content"
		}
	}
	return ""
}
