package admin

// AspectFieldType is the data type of a field (the service's
// AspectFieldType), used by the columns of tables and by the fields of
// elements. Values the service may add later are sent and kept as given.
type AspectFieldType string

// The field types the service publishes.
const (
	FieldTypeAttachmentID  AspectFieldType = "ATTACHMENT_ID"
	FieldTypeBoolean       AspectFieldType = "BOOLEAN"
	FieldTypeDate          AspectFieldType = "DATE"
	FieldTypeDateTime      AspectFieldType = "DATETIME"
	FieldTypeDecimal       AspectFieldType = "DECIMAL"
	FieldTypeGroupID       AspectFieldType = "GROUP_ID"
	FieldTypeHandle        AspectFieldType = "HANDLE"
	FieldTypeHTML          AspectFieldType = "HTML"
	FieldTypeJSON          AspectFieldType = "JSON"
	FieldTypeMultiPicklist AspectFieldType = "MULTI_PICKLIST"
	FieldTypeNumber        AspectFieldType = "NUMBER"
	FieldTypePicklist      AspectFieldType = "PICKLIST"
	FieldTypeText          AspectFieldType = "TEXT"
	FieldTypeUserID        AspectFieldType = "USER_ID"
)
