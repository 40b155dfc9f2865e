package chat

import "fmt"

// gemini cuts a Gemini generateContent body: `systemInstruction` (one part), each function
// declaration of `tools` (a tool element without declarations, such as googleSearch, is one part),
// and each element of `contents`.
func (r *Request) gemini(contents []byte, offContents int, sys []byte, offSys int, tools []byte, offTools int) error {
	if sys != nil && !isNull(sys) {
		r.System = append(r.System, Part{Kind: System, Field: "systemInstruction", Index: -1, Role: "system", Raw: sys,
			Off: offSys})
	}
	if tools != nil && !isNull(tools) {
		if len(tools) == 0 || tools[0] != '[' {
			return fmt.Errorf("\"tools\" must be an array")
		}
		if _, err := skipArray(tools, 0, 0, func(n, s, e int) error {
			el := tools[s:e]
			ds, de, ok := Member(el, "functionDeclarations")
			if !ok {
				ds, de, ok = Member(el, "function_declarations")
			}
			if !ok || len(el[ds:de]) == 0 || el[ds] != '[' {
				r.Tools = append(r.Tools, Part{Kind: Tool, Field: "tools", Index: n, Raw: el, Off: offTools + s})
				return nil
			}
			field := fmt.Sprintf("tools[%d].functionDeclarations", n)
			decls := el[ds:de]
			_, err := skipArray(decls, 0, 0, func(k, s2, e2 int) error {
				r.Tools = append(r.Tools, Part{Kind: Tool, Field: field, Index: k, Raw: decls[s2:e2],
					Off: offTools + s + ds + s2})
				return nil
			})
			return err
		}); err != nil {
			return err
		}
	}
	if len(contents) == 0 || contents[0] != '[' {
		return fmt.Errorf("\"contents\" must be an array")
	}
	return r.addMessages(span{contents, offContents}, "contents", false, nil)
}
