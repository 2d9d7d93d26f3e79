package modelgen

// Fake are the generated files of package workflowtest, the fake: the
// request bodies of the records API's routes, which no model of package
// admin covers. Their types are unexported: they are the fake's own.
var Fake = []File{{Package: "workflowtest", Name: "bodies_gen.go", Types: []Type{
	{Name: "createUserInput", From: []string{"CreateUserInput"}, Body: true, Extra: fakeExtra,
		Doc: "createUserInput is the body of POST /users."},
	{Name: "groupRequest", From: []string{"GroupRequest"}, Body: true, Extra: fakeExtra,
		Doc: "groupRequest is the body of POST /groups and PUT /groups/{groupId}."},
	{Name: "groupUserIDsInput", From: []string{"GroupUserIdsInput"}, Body: true, Extra: fakeExtra,
		Doc: "groupUserIDsInput is the body of the group-membership changes."},
	{Name: "watcherListInput", From: []string{"WatcherListInput"}, Body: true, Extra: fakeExtra,
		Doc: "watcherListInput is the body of POST and DELETE .../watchers."},
	{Name: "relatedItemInput", From: []string{"RelatedItemInput"}, Body: true, Extra: fakeExtra,
		Doc: "relatedItemInput is the body of POST .../related-items: exactly one item."},
	{Name: "attachmentLink", From: []string{"AttachmentLinkInput"}, Also: []string{"AttachmentLink"}, Body: true, Extra: fakeExtra,
		Doc: "attachmentLink is the body of POST .../attachments/url-links (AttachmentLinkInput), and its answer (AttachmentLink, the same members)."},
}}}

// fakeExtra is the doc comment of the Extra member of the fake's bodies.
const fakeExtra = "Extra holds the members the schema does not declare; the fake reads none of them."

// Sets are the generated files of each package, by the package's name,
// with the Go types of the schemas written by hand in it.
var Sets = map[string]struct {
	Files []File
	Hand  map[string]string
}{
	"admin":        {Admin, AdminHand},
	"workflowtest": {Fake, nil},
}
