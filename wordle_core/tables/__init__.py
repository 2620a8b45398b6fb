"""Reading and exporting what the pipelines wrote: Avro tables, trees, tree exports."""
