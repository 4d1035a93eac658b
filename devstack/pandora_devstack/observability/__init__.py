"""The local dashboard: EMF lines captured from the handlers, drawn with the template's own widgets."""
