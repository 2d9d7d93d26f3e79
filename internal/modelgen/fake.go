package modelgen

// Fake are the generated files of package workflowtest, the fake: what
// no exported model of package workflow or admin covers. Those are the
// bodies of the member and watcher changes (package workflow's are
// unexported), and the replies the fake builds: the records API's models
// leave an empty member out, where the fake writes every member the
// document has, empty or not. Their types are unexported: they are the
// fake's own.
var Fake = []File{{Package: "workflowtest", Name: "bodies_gen.go", Types: []Type{
	{Name: "groupUserIDsInput", From: []string{"GroupUserIdsInput"}, Body: true, Extra: fakeExtra,
		Doc: "groupUserIDsInput is the body of the group-membership changes."},
	{Name: "watcherListInput", From: []string{"WatcherListInput"}, Body: true, Extra: fakeExtra,
		Doc: "watcherListInput is the body of POST and DELETE .../watchers."},
	{Name: "userJSON", From: []string{"User"}, Reply: true, Doc: "userJSON is a user on the wire: the service's User."},
	{Name: "groupJSON", From: []string{"Group"}, Reply: true, Doc: "groupJSON is the service's Group."},
	{Name: "domainJSON", From: []string{"GroupDomain"}, Reply: true, Doc: "domainJSON is an e-mail domain of a dynamic group: the service's GroupDomain."},
	{Name: "commentJSON", From: []string{"Comment"}, Reply: true, GoTypes: map[string]string{"createdBy": "any"},
		Doc: "commentJSON is a comment on the wire: the service's Comment, its author as the users routes show users."},
	{Name: "recordItem", From: []string{"RecordListItem"}, Reply: true, GoTypes: map[string]string{"data": "fieldSet"},
		Doc: "recordItem is the spec's RecordListItem."},
	{Name: "pagedList", Reply: true, GoTypes: map[string]string{"items": "any"},
		From: []string{"RecordPagedList", "RelatedPagedList", "WatcherPagedList", "CommentPagedList", "UserPagedList",
			"GroupPagedList", "AspectViewPagedList", "AgentPagedList", "SkillPagedList", "TablePagedList"},
		Doc: "pagedList is the body of every paged list: the spec's RecordPagedList, whose items are {\"data\", \"cursor\"}, and the service's Paged<X>, whose items are the objects themselves (a related item carries its own \"cursor\" member, the others none), with \"total\" and \"paging\" as in the record list. Paging parameters, cursors and page selection are those of the record list everywhere; a filter is refused where the service publishes none."},
	{Name: "pagingStatus", From: []string{"PagingState"}, Reply: true, Doc: "pagingStatus is the paging state of a page: the service's PagingState.",
		Names: map[string]string{"has_next_page": "HasNextPage", "has_previous_page": "HasPreviousPage", "start_cursor": "StartCursor", "end_cursor": "EndCursor"}},
}}}

// fakeExtra is the doc comment of the Extra member of the fake's bodies.
const fakeExtra = "Extra holds the members the schema does not declare; the fake reads none of them."
