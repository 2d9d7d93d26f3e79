package workflowtest

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// maxUploadSize is the service's size limit of an uploaded file: "250 MB",
// read as 250,000,000 bytes, as the SDK reads it.
const maxUploadSize = workflow.MaxUploadSize

// Attachment states, as the service publishes them: an upload is
// PROCESSING, then VALID (ready) or ERROR (failed).
const (
	StateProcessing = "PROCESSING"
	StateValid      = "VALID"
	StateError      = "ERROR"
)

// DefaultStoredContentLimit is how many bytes of an uploaded file the
// fake keeps for the download route, unless WithStoredContentLimit says
// otherwise: every file the service takes (250 MB).
const DefaultStoredContentLimit = maxUploadSize

// maxDescription bounds the description part of an upload, and
// maxOtherParts the total size of parts other than file and description.
const (
	maxDescription = 64 << 10
	maxOtherParts  = 1 << 20
	// maxDrainOut bounds what is read of an upload over the size limit
	// before it is answered.
	maxDrainOut = 1 << 30
)

// AttachmentPolicy decides when an uploaded file leaves the PROCESSING
// state the upload's 202 answer reports. Build one with ReadyImmediately,
// ReadyAfterPolls, ReadyAfter or Manually; set FinalState to StateError to
// simulate files that the service rejects (or inject a Fault with
// ProcessingError for single uploads).
type AttachmentPolicy struct {
	// Polls is the number of GET .../attachments/{attachmentId} requests
	// that still see PROCESSING; the next one sees the final state.
	Polls int
	// After is how long, on the server's clock, processing takes.
	After time.Duration
	// Manual keeps the file processing until SetAttachmentState.
	Manual bool
	// FinalState is the state reached, StateValid when empty.
	FinalState string
}

// ReadyImmediately makes a file ready at once: the 202 answer says
// PROCESSING, every later read says VALID. This is the default.
func ReadyImmediately() AttachmentPolicy { return AttachmentPolicy{} }

// ReadyAfterPolls makes a file ready on the (n+1)th GET of it.
func ReadyAfterPolls(n int) AttachmentPolicy { return AttachmentPolicy{Polls: n} }

// ReadyAfter makes a file ready once d has passed on the server's clock
// (see Advance).
func ReadyAfter(d time.Duration) AttachmentPolicy { return AttachmentPolicy{After: d} }

// Manually keeps a file processing until SetAttachmentState moves it.
func Manually() AttachmentPolicy { return AttachmentPolicy{Manual: true} }

// AttachmentInfo describes a stored attachment, for assertions.
type AttachmentInfo struct {
	ID          string
	Name        string
	Description string
	MediaType   string
	Size        int64
	SHA256      string // hex SHA-256 of the uploaded content; empty for links
	URL         string // links only
	State       string
	CreatedAt   time.Time
}

// attachment is a file or link attachment of a record: what the
// assertions see of it, and how it moves on.
type attachment struct {
	AttachmentInfo // State guarded by mu, which reads (under the server's read lock) move on
	policy         AttachmentPolicy
	mu             sync.Mutex
	polls          int      // guarded by mu
	content        *content // the uploaded bytes; nil when over the stored limit
	rec            *record
}

// observe moves a processing attachment on by its policy, and returns
// its state; poll says whether this read is a GET of the attachment
// itself.
func (a *attachment) observe(now time.Time, poll bool) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.State != StateProcessing || a.policy.Manual {
		return a.State
	}
	if poll {
		a.polls++
	}
	p := a.policy
	if (p.Polls > 0 && a.polls <= p.Polls) || (p.After > 0 && now.Sub(a.CreatedAt) < p.After) {
		return a.State
	}
	a.State = cmp.Or(p.FinalState, StateValid)
	return a.State
}

// json is the attachment on the wire, the service's Attachment, in the
// given state. Every attachment of the fake is PRIVATE.
func (a *attachment) json(state string) map[string]any {
	return map[string]any{
		"id": a.ID, "name": a.Name, "description": a.Description, "mediaType": a.MediaType, "size": a.Size,
		"state": state, "createdAt": formatTime(a.CreatedAt), "contentUrl": a.contentURL(), "viewState": "PRIVATE",
	}
}

// contentURL is the path of the attachment's download route.
func (a *attachment) contentURL() string {
	r := a.rec
	return "/v1/" + url.PathEscape(string(r.def.key.rt)) + "/" + url.PathEscape(r.def.key.alias) + "/" +
		url.PathEscape(r.id) + "/attachments/" + url.PathEscape(a.ID) + "/content"
}

// info describes the attachment in the state it is in, without moving
// it.
func (a *attachment) info() AttachmentInfo {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.AttachmentInfo
}

// Attachments returns the attachments of a record in the order they were
// added (nil if the record does not exist). It does not move their state.
func (s *Server) Attachments(rt workflow.RecordType, alias, recordID string) []AttachmentInfo {
	return ofRecord(s, rt, alias, recordID, func(r *record) []*attachment { return r.attachments }, func(a *attachment) AttachmentInfo { return a.info() })
}

// SetAttachmentState sets an attachment's state (for example StateValid
// or StateError for a file kept processing by Manually). It reports
// whether the attachment exists.
func (s *Server) SetAttachmentState(attachmentID, state string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.st.attachments[attachmentID]
	if a != nil {
		a.State = state
	}
	return a != nil
}

// attachmentRoutes are the operations on attachments.
var attachmentRoutes = []route{
	onJSON[workflow.Link](op.CreateRecordLink, onRecord((*Server).addLink)),
	on(op.ListRecordAttachments, onRecord((*Server).listAttachments)),
	on(op.CreateRecordAttachment, onRecord((*Server).uploadAttachment)).readingRecord(readUpload),
	on(op.GetRecordAttachment, found((*Server).lookupAttachment, (*Server).getAttachment)),
	on(op.DeleteRecordAttachments, found((*Server).lookupAttachment, (*Server).deleteAttachment)),
	on(op.DownloadRecordAttachment, found((*Server).lookupAttachment, (*Server).downloadAttachment)),
}

// listAttachments is GET .../attachments: a bare array.
func (s *Server) listAttachments(_ *request, rec *record) response {
	now := s.Now()
	return reply(http.StatusOK, mapped(rec.attachments, func(a *attachment) map[string]any { return a.json(a.observe(now, false)) }))
}

// lookupAttachment finds the attachment {attachmentId} of the route's
// record.
func (s *Server) lookupAttachment(rq *request) (*attachment, *httpError) {
	rec, e := s.lookupRecord(rq)
	if e != nil {
		return nil, e
	}
	id := rq.params["attachmentId"]
	if a := s.st.attachments[id]; a != nil && a.rec == rec {
		return a, nil
	}
	return nil, errf(http.StatusNotFound, "no attachment %q on record %q", id, rec.id)
}

// attach stores a new attachment of rec, giving it its id and, unless it
// has one, its creation time.
func (s *Server) attach(rec *record, a *attachment) *attachment {
	a.ID, a.CreatedAt, a.rec = s.st.next.id("a", &s.st.next.attachment), cmp.Or(a.CreatedAt, s.Now()), rec
	s.st.attachments[a.ID] = a
	rec.attachments = append(rec.attachments, a)
	return a
}

// getAttachment is GET .../attachments/{attachmentId}; it counts as a
// poll for the attachment policy.
func (s *Server) getAttachment(_ *request, a *attachment) response {
	return reply(http.StatusOK, a.json(a.observe(s.Now(), true)))
}

// deleteAttachment is DELETE .../attachments/{attachmentId}: 200, no
// body.
func (s *Server) deleteAttachment(_ *request, a *attachment) response {
	delete(s.st.attachments, a.ID)
	a.content.remove()
	a.rec.attachments = slices.DeleteFunc(a.rec.attachments, func(x *attachment) bool { return x == a })
	return response{status: http.StatusOK}
}

// downloadAttachment is GET .../attachments/{attachmentId}/content: 200
// with the uploaded bytes as application/octet-stream (the only media type
// the service publishes for it), their length and file name
// (Content-Disposition). A file still PROCESSING or in ERROR has no
// content to give: 422, one of the statuses every operation publishes. A
// file over a stored-content limit lowered with WithStoredContentLimit is
// answered 501, since its bytes were not kept.
func (s *Server) downloadAttachment(_ *request, a *attachment) response {
	state := a.observe(s.Now(), false)
	switch {
	case a.URL != "":
		return failf(http.StatusNotFound, "attachment %s is a link and has no content", a.ID)
	case state != StateValid:
		return failf(http.StatusUnprocessableEntity, "attachment %s is %s, not VALID: no content yet", a.ID, state)
	case a.content == nil:
		return failf(http.StatusNotImplemented, "attachment %s (%d bytes) is over the stored-content limit of %d bytes "+
			"(WithStoredContentLimit, or workflow-fake -stored-content-limit); its bytes were not kept", a.ID, a.Size, s.cfg.maxStored)
	}
	body, err := a.content.open()
	if err != nil {
		return failf(http.StatusInternalServerError, "reading the content of attachment %s: %v", a.ID, err)
	}
	return response{
		status: http.StatusOK,
		header: http.Header{
			"Content-Type":        {"application/octet-stream"},
			"Content-Disposition": {mime.FormatMediaType("attachment", map[string]string{"filename": a.Name})},
		},
		stream: body, length: a.content.size,
	}
}

// addLink is POST .../attachments/url-links: 201 with {"url",
// "description"}. The link is stored as an attachment named by its URL,
// VALID at once.
func (s *Server) addLink(rq *request, rec *record) response {
	body := in[*workflow.Link](rq)
	body.Description, body.Extra = new(valueOf(body.Description)), nil // answered, "" included; other members dropped
	u, err := url.Parse(body.URL)
	if body.URL == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return failf(http.StatusUnprocessableEntity, "invalid /url: must be an absolute http or https URL, the fake's rule")
	}
	s.attach(rec, &attachment{AttachmentInfo: AttachmentInfo{Name: body.URL, Description: *body.Description,
		MediaType: "text/uri-list", URL: body.URL, State: StateValid}})
	return reply(http.StatusCreated, body)
}

// readUpload reads the body of POST .../attachments, after a 404 or 403
// for the record: a multipart/form-data body with a "file" part and an
// optional "description" part, read as a stream (the content is counted
// and hashed, and kept up to the stored content limit for the download
// route, in a temporary file beyond spillAt bytes).
func readUpload(s *Server, rq *request) *httpError {
	mr, err := rq.r.MultipartReader()
	if err != nil {
		return errf(http.StatusBadRequest, "the body must be multipart/form-data with a boundary: %v", err)
	}
	up := &attachment{}
	sum := spool{h: sha256.New(), limit: s.cfg.maxStored, spillAt: s.cfg.spillAt, fs: &s.files}
	defer sum.discard()
	var seenDescription bool
	var other int64
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return errf(http.StatusBadRequest, "malformed multipart body: %v", err)
		}
		switch part.FormName() {
		case "file":
			if up.Name != "" { // a file part read already: it had a name
				return errf(http.StatusBadRequest, "invalid file: only one part named \"file\" is allowed")
			}
			// The file name as sent: Part.FileName would cut a path to its
			// last element, and the fake keeps names as they come or
			// refuses them, never renames them.
			_, params, _ := mime.ParseMediaType(part.Header.Get("Content-Disposition"))
			switch up.Name = params["filename"]; {
			case up.Name == "" || up.Name == "." || up.Name == "..":
				return errf(http.StatusBadRequest, "invalid file: the \"file\" part has no file name")
			case strings.ContainsAny(up.Name, `/\`):
				return errf(http.StatusBadRequest, "invalid file: the file name %q is a path; send the name alone", up.Name)
			}
			up.MediaType = partMediaType(part.Header.Get("Content-Type"), up.Name)
			if _, err := io.Copy(&sum, io.LimitReader(part, s.cfg.maxUpload+1)); sum.err != nil {
				return errf(http.StatusInternalServerError, "keeping the upload in a temporary file: %v", sum.err)
			} else if err != nil {
				return errf(http.StatusBadRequest, "invalid file: reading the content: %v", err)
			}
			if sum.n > s.cfg.maxUpload {
				// Read what the client is still sending (up to a bound) so
				// that it sees the answer instead of a reset connection.
				_, _ = io.Copy(io.Discard, io.LimitReader(rq.r.Body, maxDrainOut))
				return errf(http.StatusRequestEntityTooLarge, "the file is over the size limit of %d bytes", s.cfg.maxUpload)
			}
		case "description":
			if seenDescription {
				return errf(http.StatusBadRequest, "only one part named \"description\" is allowed")
			}
			seenDescription = true
			b, err := io.ReadAll(io.LimitReader(part, maxDescription+1))
			if err != nil {
				return errf(http.StatusBadRequest, "malformed multipart body: reading the description: %v", err)
			}
			if len(b) > maxDescription {
				return errf(http.StatusBadRequest, "the description is longer than %d bytes", maxDescription)
			}
			up.Description = string(b)
		default:
			n, err := io.Copy(io.Discard, io.LimitReader(part, maxOtherParts+1-other))
			other += n
			if err != nil {
				return errf(http.StatusBadRequest, "malformed multipart body: %v", err)
			}
			if other > maxOtherParts {
				return errf(http.StatusBadRequest, "unknown parts are larger than %d bytes", maxOtherParts)
			}
		}
	}
	switch {
	case up.Name == "":
		return errf(http.StatusBadRequest, "invalid file: a part named \"file\" is required")
	case sum.n == 0:
		return errf(http.StatusBadRequest, "invalid file: the file is empty")
	}
	if up.content, err = sum.kept(); err != nil {
		return errf(http.StatusInternalServerError, "keeping the upload in a temporary file: %v", err)
	}
	up.Size, up.SHA256 = sum.n, hex.EncodeToString(sum.h.Sum(nil))
	rq.in = up
	return nil
}

// uploadAttachment is POST .../attachments: 202 with the attachment,
// state PROCESSING.
func (s *Server) uploadAttachment(rq *request, rec *record) response {
	a := in[*attachment](rq)
	a.State, a.policy = StateProcessing, s.cfg.policy
	if rq.processingError { // an injected fault: this file's processing ends in ERROR
		a.policy.FinalState = StateError
	}
	return reply(http.StatusAccepted, s.attach(rec, a).json(StateProcessing))
}

// partMediaType is the media type of an uploaded file: the part's
// Content-Type, or one guessed from the file name's extension when the
// part has none or the generic application/octet-stream.
func partMediaType(header, name string) string {
	if mt, params, err := mime.ParseMediaType(header); err == nil && mt != "application/octet-stream" {
		return mime.FormatMediaType(mt, params)
	}
	if byExt := mime.TypeByExtension(path.Ext(name)); byExt != "" {
		return byExt
	}
	return "application/octet-stream"
}
