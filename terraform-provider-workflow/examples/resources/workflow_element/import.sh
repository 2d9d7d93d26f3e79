# the element's id, or its namespace
tofu import workflow_element.products products
