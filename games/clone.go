package games

import (
	"fmt"
	"reflect"
	"sync"
)

// Clone deep-copies a game state, so a channel's next move can start from
// the state its last move committed instead of decoding it again. States
// are plain exported data (see Encode), which is all Clone copies: a state
// holding anything else is refused and the caller decodes.
func Clone(g Game) (Game, error) {
	v := reflect.ValueOf(g)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return nil, fmt.Errorf("clone: a state must be a non-nil pointer, not %T", g)
	}
	c, err := deepCopy(v)
	if err != nil {
		return nil, err
	}
	return c.Interface().(Game), nil
}

func deepCopy(v reflect.Value) (reflect.Value, error) {
	t := v.Type()
	if !holdsRefs(t) {
		return v, nil // copied by value
	}
	switch t.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return reflect.Zero(t), nil
		}
		e, err := deepCopy(v.Elem())
		if err != nil {
			return v, err
		}
		c := reflect.New(t.Elem())
		c.Elem().Set(e)
		return c, nil
	case reflect.Slice:
		if v.IsNil() {
			return reflect.Zero(t), nil
		}
		c := reflect.MakeSlice(t, v.Len(), v.Len())
		return c, copyElems(c, v)
	case reflect.Array:
		c := reflect.New(t).Elem()
		return c, copyElems(c, v)
	case reflect.Map:
		if v.IsNil() {
			return reflect.Zero(t), nil
		}
		c := reflect.MakeMapWithSize(t, v.Len())
		for it := v.MapRange(); it.Next(); {
			k, err := deepCopy(it.Key())
			if err != nil {
				return v, err
			}
			e, err := deepCopy(it.Value())
			if err != nil {
				return v, err
			}
			c.SetMapIndex(k, e)
		}
		return c, nil
	case reflect.Struct:
		refs, err := refFields(t)
		if err != nil {
			return v, err
		}
		c := reflect.New(t).Elem()
		c.Set(v)
		for _, i := range refs {
			f, err := deepCopy(v.Field(i))
			if err != nil {
				return v, err
			}
			c.Field(i).Set(f)
		}
		return c, nil
	}
	return v, fmt.Errorf("clone: cannot copy a %s", t)
}

func copyElems(dst, src reflect.Value) error {
	if !holdsRefs(src.Type().Elem()) {
		reflect.Copy(dst, src)
		return nil
	}
	for i := range src.Len() {
		e, err := deepCopy(src.Index(i))
		if err != nil {
			return err
		}
		dst.Index(i).Set(e)
	}
	return nil
}

// structRefs is what a struct type needs copied beyond its bytes: the
// fields holding references, or why it cannot be copied.
type structRefs struct {
	fields []int
	err    error
}

var refStructs sync.Map // reflect.Type → structRefs

// refFields lists the fields of struct type t that hold references, once
// per type: looking each field up again on every copy (reflect builds a
// StructField every time) was a third of Clone's cost.
func refFields(t reflect.Type) ([]int, error) {
	if r, ok := refStructs.Load(t); ok {
		r := r.(structRefs)
		return r.fields, r.err
	}
	var r structRefs
	for i := range t.NumField() {
		f := t.Field(i)
		if !holdsRefs(f.Type) {
			continue
		}
		if !f.IsExported() {
			r = structRefs{err: fmt.Errorf("clone: %s.%s is unexported", t, f.Name)}
			break
		}
		r.fields = append(r.fields, i)
	}
	refStructs.Store(t, r)
	return r.fields, r.err
}

var refTypes sync.Map // reflect.Type → bool

// holdsRefs says whether a value of t shares memory when copied by value.
// Strings are immutable, so they count as values.
func holdsRefs(t reflect.Type) bool {
	if r, ok := refTypes.Load(t); ok {
		return r.(bool)
	}
	refTypes.Store(t, true) // a type that contains itself does so by reference
	var r bool
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		r = true
	case reflect.Array:
		r = holdsRefs(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if holdsRefs(t.Field(i).Type) {
				r = true
				break
			}
		}
	}
	refTypes.Store(t, r)
	return r
}
