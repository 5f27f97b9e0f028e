a = "x\qy \u12z \uD800 \U00110000 \U0001f60 \é \	 \$${x}"
b = "trailing \
"
c = "\u"
