package admin

// AspectFieldType is the data type of a field (the service's
// AspectFieldType), used by the columns of tables and by the fields of
// elements. Values the service may add later are sent and kept as given.
type AspectFieldType string

// The field types the service publishes.
const (
	FieldAttachmentID  AspectFieldType = "ATTACHMENT_ID"
	FieldBoolean       AspectFieldType = "BOOLEAN"
	FieldDate          AspectFieldType = "DATE"
	FieldDateTime      AspectFieldType = "DATETIME"
	FieldDecimal       AspectFieldType = "DECIMAL"
	FieldGroupID       AspectFieldType = "GROUP_ID"
	FieldHandle        AspectFieldType = "HANDLE"
	FieldHTML          AspectFieldType = "HTML"
	FieldJSON          AspectFieldType = "JSON"
	FieldMultiPicklist AspectFieldType = "MULTI_PICKLIST"
	FieldNumber        AspectFieldType = "NUMBER"
	FieldPicklist      AspectFieldType = "PICKLIST"
	FieldText          AspectFieldType = "TEXT"
	FieldUserID        AspectFieldType = "USER_ID"
)
